--
-- PostgreSQL database dump
--

\restrict KOKBQBlVeprdiUjwyzcVNBJ5u53CChQoMmbweUyPSlYE4bR7poo9OcxnJodigtC

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: actions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.actions (
    game_id character varying(32) NOT NULL,
    idx integer NOT NULL,
    action integer NOT NULL
);


--
-- Name: games; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.games (
    id character varying(32) NOT NULL,
    game character varying(16) NOT NULL,
    status character varying(12) NOT NULL,
    rules json NOT NULL,
    setup json,
    seed bigint NOT NULL,
    turn_timer double precision NOT NULL,
    time_limit integer NOT NULL,
    end_requested_after integer,
    created_at timestamp without time zone NOT NULL,
    started_at timestamp without time zone,
    finished_at timestamp without time zone
);


--
-- Name: seats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.seats (
    game_id character varying(32) NOT NULL,
    seat integer NOT NULL,
    name character varying(64),
    token_hash character varying(64),
    bot character varying(32),
    final_chips integer
);


--
-- Data for Name: actions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.actions VALUES ('VuuLr-H5HIM', 0, 0);
INSERT INTO public.actions VALUES ('VuuLr-H5HIM', 1, 4);
INSERT INTO public.actions VALUES ('VuuLr-H5HIM', 2, 323);
INSERT INTO public.actions VALUES ('VuuLr-H5HIM', 3, 5);
INSERT INTO public.actions VALUES ('VuuLr-H5HIM', 4, 28);
INSERT INTO public.actions VALUES ('VuuLr-H5HIM', 5, 0);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 0, 0);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 1, 3);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 2, 4);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 3, 4);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 4, 415);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 5, 6);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 6, 6);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 7, 10);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 8, 0);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 9, 415);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 10, 5);
INSERT INTO public.actions VALUES ('gDKidcIm_0I', 11, 417);
INSERT INTO public.actions VALUES ('olNfG1IrJcU', 0, 0);
INSERT INTO public.actions VALUES ('olNfG1IrJcU', 1, 1);


--
-- Data for Name: games; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.games VALUES ('VuuLr-H5HIM', 'rummoli', 'finished', '{"starting_chips": 100, "ace_of_spades": true, "short_ante": "out", "widow": "exchange_or_auction", "pay_card_blocks_exchange": true, "poker": "betting", "bet_limit": "no_limit", "lead": "lowest_in_hand", "switch_lead": "lowest_of_colour", "cant_lead_fine": 0, "deadlock": "end_round", "must_claim": false, "rounds": 1, "settlement": "one_poker_hand"}', '{"players": ["Ann", "Bot 2"], "chips": [100, 100]}', 202847899085266838, 0, 0, NULL, '2026-12-01 11:51:00.456461', '2026-12-01 11:51:00.464806', '2026-12-01 11:51:00.476641');
INSERT INTO public.games VALUES ('gDKidcIm_0I', 'rummoli', 'playing', '{"starting_chips": 100, "ace_of_spades": true, "short_ante": "out", "widow": "exchange_or_auction", "pay_card_blocks_exchange": true, "poker": "betting", "bet_limit": 2, "lead": "lowest_in_hand", "switch_lead": "lowest_of_colour", "cant_lead_fine": 0, "deadlock": "end_round", "must_claim": false, "rounds": 3, "settlement": "one_poker_hand"}', '{"players": ["Bea", "Bot 2", "Bot 3"], "chips": [100, 100, 100]}', 1650547554486093824, 0, 0, NULL, '2026-12-01 11:51:00.481245', '2026-12-01 11:51:00.485993', NULL);
INSERT INTO public.games VALUES ('UxWkVsem_2k', 'rummoli', 'waiting', '{"starting_chips": 100, "ace_of_spades": true, "short_ante": "out", "widow": "exchange_or_auction", "pay_card_blocks_exchange": true, "poker": "betting", "bet_limit": "no_limit", "lead": "lowest_in_hand", "switch_lead": "lowest_of_colour", "cant_lead_fine": 0, "deadlock": "end_round", "must_claim": false, "rounds": 0, "settlement": "one_poker_hand"}', 'null', 320449630274780461, 0, 0, NULL, '2026-12-01 11:51:00.513107', NULL, NULL);
INSERT INTO public.games VALUES ('olNfG1IrJcU', 'rummy', 'playing', '{"target": 50, "one_meld_per_turn": false}', '{"players": ["Dee", "Bot 2"]}', 3507710825379885375, 0, 0, NULL, '2026-12-01 11:51:00.522944', '2026-12-01 11:51:00.532702', NULL);


--
-- Data for Name: seats; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.seats VALUES ('VuuLr-H5HIM', 0, 'Ann', '5ca6ea032011c7289a8d504823c535337977722772d190bd69333aaf5526d6d7', NULL, 118);
INSERT INTO public.seats VALUES ('VuuLr-H5HIM', 1, 'Bot 2', NULL, 'random', 82);
INSERT INTO public.seats VALUES ('gDKidcIm_0I', 1, 'Bot 2', NULL, 'random', NULL);
INSERT INTO public.seats VALUES ('gDKidcIm_0I', 2, 'Bot 3', NULL, 'random', NULL);
INSERT INTO public.seats VALUES ('gDKidcIm_0I', 0, 'Bea', '0831e4f232fb532e1b5c49938dc4d4c93074f6d9581e526b2c7f4669c41c2bef', NULL, NULL);
INSERT INTO public.seats VALUES ('UxWkVsem_2k', 1, NULL, NULL, NULL, NULL);
INSERT INTO public.seats VALUES ('UxWkVsem_2k', 0, 'Cy', 'f04db225519e94f73bc26ada870669b1b1a524dd3a16c234ffff01d34b40e9ef', NULL, NULL);
INSERT INTO public.seats VALUES ('olNfG1IrJcU', 1, 'Bot 2', NULL, 'random', NULL);
INSERT INTO public.seats VALUES ('olNfG1IrJcU', 0, 'Dee', 'c250306e22a081154822017681a2f35e92dc61e92f750da25f9b7b46f82b8455', NULL, NULL);


--
-- Name: actions actions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.actions
    ADD CONSTRAINT actions_pkey PRIMARY KEY (game_id, idx);


--
-- Name: games games_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.games
    ADD CONSTRAINT games_pkey PRIMARY KEY (id);


--
-- Name: seats seats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seats
    ADD CONSTRAINT seats_pkey PRIMARY KEY (game_id, seat);


--
-- Name: ix_games_finished_at; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_games_finished_at ON public.games USING btree (finished_at);


--
-- Name: ix_games_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_games_status ON public.games USING btree (status);


--
-- Name: ix_seats_name; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_seats_name ON public.seats USING btree (name);


--
-- Name: actions actions_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.actions
    ADD CONSTRAINT actions_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.games(id) ON DELETE CASCADE;


--
-- Name: seats seats_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.seats
    ADD CONSTRAINT seats_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.games(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict KOKBQBlVeprdiUjwyzcVNBJ5u53CChQoMmbweUyPSlYE4bR7poo9OcxnJodigtC

