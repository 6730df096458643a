/* What the compiled readers of lcnotation/formats (_chikinn.c,
 * _metapyziks.c) both need to hand their answers to Python: an int of a
 * Py_ssize_t, and a tuple subclass (a Move, a Span) made of new references.
 * Included by each; setup.py lists it among their depends. */
#ifndef LCNOTATION_FORMATS_TUPLES_H
#define LCNOTATION_FORMATS_TUPLES_H

#include <Python.h>

static PyObject *ssize(Py_ssize_t v)
{
    return PyLong_FromSsize_t(v);
}

/* A tuple subclass `type` holding the n references of items (stolen; NULL
 * when one of them is NULL). */
static PyObject *made(PyTypeObject *type, PyObject **items, int n)
{
    PyObject *obj = NULL;
    int i, ok = 1;
    for (i = 0; i < n; i++)
        if (items[i] == NULL)
            ok = 0;
    if (ok)
        obj = type->tp_alloc(type, n);
    if (obj == NULL) {
        for (i = 0; i < n; i++)
            Py_XDECREF(items[i]);
        return NULL;
    }
    for (i = 0; i < n; i++)
        PyTuple_SET_ITEM(obj, i, items[i]);
    return obj;
}

#endif
