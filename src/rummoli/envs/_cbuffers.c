/* The learning environments' per-step buffers, written in C.

   Why: a PettingZoo step makes an action mask and at least one observation tensor, as
   new buffers that numpy then reads in place (np.frombuffer). rummoli/envs/buffers.py
   writes the same bytes in mypyc-compiled Python, but mypyc has no native store into a
   bytearray or an array: every element written there is a generic Python item
   assignment with a boxed number (about 40 ns), which made a Rummoli tensor cost three
   microseconds, as much as the features themselves. Here each is a plain store.

   Same functions, same arguments, same bytes as buffers.py (a test compares them on
   random input); rummoli/envs/writers.py takes these when this module was built, else
   those. Python's C API only (no numpy at build time), and GCC's or Clang's
   __builtin_ctzll. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* bytearray(size), every byte 0. */
static PyObject *zeroed(Py_ssize_t size) {
    PyObject *out = PyByteArray_FromStringAndSize(NULL, size);
    if (out != NULL && size > 0) {
        memset(PyByteArray_AS_STRING(out), 0, (size_t)size);
    }
    return out;
}

/* action_mask(size, legal): size bytes, 1 at each action of the list legal. */
static PyObject *action_mask(PyObject *self, PyObject *args) {
    Py_ssize_t size;
    PyObject *legal;
    (void)self;
    if (!PyArg_ParseTuple(args, "nO!:action_mask", &size, &PyList_Type, &legal)) {
        return NULL;
    }
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "the mask's size cannot be negative");
        return NULL;
    }
    PyObject *mask = zeroed(size);
    if (mask == NULL) {
        return NULL;
    }
    char *bytes = PyByteArray_AS_STRING(mask);
    Py_ssize_t count = PyList_GET_SIZE(legal);
    for (Py_ssize_t k = 0; k < count; k++) {
        Py_ssize_t action = PyLong_AsSsize_t(PyList_GET_ITEM(legal, k));
        if (action == -1 && PyErr_Occurred()) {
            Py_DECREF(mask);
            return NULL;
        }
        if (action < 0 || action >= size) {
            Py_DECREF(mask);
            return PyErr_Format(PyExc_IndexError, "action %zd is outside the mask's 0..%zd",
                                action, size - 1);
        }
        bytes[action] = 1;
    }
    return mask;
}

/* Raise IndexError for a position outside the tensor. */
static PyObject *outside(Py_ssize_t at, Py_ssize_t size) {
    return PyErr_Format(PyExc_IndexError, "position %zd is outside the tensor's 0..%zd", at,
                        size - 1);
}

/* features_floats(size, masks, positions, values): the float32 tensor (the machine's own
   float layout, which numpy's float32 reads) with 1.0 at offset + i for each set bit i of
   each (offset, mask) pair laid flat in the list masks, then values[k] at positions[k]
   (rounded to float32 to nearest, as numpy rounds). */
static PyObject *features_floats(PyObject *self, PyObject *args) {
    Py_ssize_t size;
    PyObject *masks, *positions, *values;
    (void)self;
    if (!PyArg_ParseTuple(args, "nO!O!O!:features_floats", &size, &PyList_Type, &masks,
                          &PyList_Type, &positions, &PyList_Type, &values)) {
        return NULL;
    }
    if (size < 0) {
        PyErr_SetString(PyExc_ValueError, "the tensor's size cannot be negative");
        return NULL;
    }
    Py_ssize_t pairs = PyList_GET_SIZE(masks);
    Py_ssize_t count = PyList_GET_SIZE(positions);
    if (pairs % 2 != 0) {
        return PyErr_Format(PyExc_ValueError, "masks holds %zd items, not (offset, mask) pairs",
                            pairs);
    }
    if (PyList_GET_SIZE(values) != count) {
        return PyErr_Format(PyExc_ValueError, "%zd positions but %zd values", count,
                            PyList_GET_SIZE(values));
    }
    PyObject *out = zeroed(4 * size);
    if (out == NULL) {
        return NULL;
    }
    float *floats = (float *)PyByteArray_AS_STRING(out);
    for (Py_ssize_t j = 0; j < pairs; j += 2) {
        Py_ssize_t offset = PyLong_AsSsize_t(PyList_GET_ITEM(masks, j));
        if (offset == -1 && PyErr_Occurred()) {
            goto fail;
        }
        unsigned long long mask = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(masks, j + 1));
        if (mask == (unsigned long long)-1 && PyErr_Occurred()) {
            goto fail;
        }
        while (mask != 0) {
            Py_ssize_t at = offset + __builtin_ctzll(mask);
            if (at < 0 || at >= size) {
                outside(at, size);
                goto fail;
            }
            floats[at] = 1.0f;
            mask &= mask - 1;
        }
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        Py_ssize_t at = PyLong_AsSsize_t(PyList_GET_ITEM(positions, k));
        if (at == -1 && PyErr_Occurred()) {
            goto fail;
        }
        if (at < 0 || at >= size) {
            outside(at, size);
            goto fail;
        }
        double value = PyFloat_AsDouble(PyList_GET_ITEM(values, k));
        if (value == -1.0 && PyErr_Occurred()) {
            goto fail;
        }
        floats[at] = (float)value;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"action_mask", action_mask, METH_VARARGS,
     "action_mask(size, legal) -> bytearray: 1 at each legal action, 0 elsewhere."},
    {"features_floats", features_floats, METH_VARARGS,
     "features_floats(size, bits, positions, values) -> bytearray of float32."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_cbuffers",
    .m_doc = "The environments' action masks and observation tensors, written in C.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__cbuffers(void) { return PyModule_Create(&module); }
