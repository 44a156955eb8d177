// The table's sounds, synthesised in the browser with the Web Audio API: a card laid (a
// short filtered noise, like a card on felt), chips moving (two bright clinks), and your
// turn (a soft two-note chime). No sound file is fetched from anywhere.
//
// Browsers let a page make sound only after a person's gesture (a click, a key); until
// the first one nothing plays, and the audio context is not even created (so nothing can
// start on its own). Sound is on by default and off with one click (the table's toggle);
// the choice is remembered in this browser.

const KEY = "rummoli.sound";
const VOLUME = 0.18;

let audio = null;
// (For the browser tests: the sounds actually synthesised, in order.)
const played = [];
window.rummoliSound = { played };

/** Whether this browser has sound on (the default) or off. */
export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

// The first gesture creates (or resumes) the audio context: before it there is none.
function unlock() {
  if (!audio) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = new Context();
  }
  if (audio.state === "suspended") audio.resume();
}
for (const type of ["pointerdown", "keydown", "touchend"]) {
  window.addEventListener(type, unlock, { capture: true, passive: true });
}

/** A gain node shaped as a quick attack and an exponential decay, into the speakers. */
function envelope(start, length, peak) {
  const gain = audio.createGain();
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(peak, start + 0.005);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  gain.connect(audio.destination);
  return gain;
}

function tone(frequency, start, length, peak, type = "sine") {
  const osc = audio.createOscillator();
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, start);
  osc.connect(envelope(start, length, peak));
  osc.start(start);
  osc.stop(start + length + 0.02);
}

function snap(start) {
  const length = 0.07;
  const buffer = audio.createBuffer(1, Math.ceil(audio.sampleRate * length), audio.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const noise = audio.createBufferSource();
  noise.buffer = buffer;
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  filter.Q.value = 0.8;
  noise.connect(filter);
  filter.connect(envelope(start, length, VOLUME * 1.4));
  noise.start(start);
}

const SOUNDS = {
  card: (t) => snap(t),
  chip: (t) => {
    tone(2600, t, 0.09, VOLUME * 0.5, "triangle");
    tone(3300, t + 0.06, 0.12, VOLUME * 0.4, "triangle");
  },
  turn: (t) => {
    tone(660, t, 0.25, VOLUME);
    tone(880, t + 0.16, 0.35, VOLUME);
  },
};

/** Play one of the table's sounds ("card", "chip", "turn"), if sound is on and a person
 * has touched the page yet. Returns whether it played. */
export function playSound(name) {
  if (!soundOn() || !audio || audio.state === "closed" || !(name in SOUNDS)) return false;
  SOUNDS[name](audio.currentTime + 0.01);
  played.push(name);
  return true;
}
