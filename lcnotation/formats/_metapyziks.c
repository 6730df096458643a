/* The compiled decoder of Metapyziks/lost-cities replays (issue 25 item 5).
 *
 * replay(data, line, line_start, width, columns) decodes the bytes of one
 * replay string (base64 already decoded, in Python) as
 * lcnotation/formats/metapyziks.py's decode_replay does, and answers what
 * that function makes of a replay that decodes cleanly, or None: "look
 * closer", and the replay goes the Python way, which decodes it (or says
 * what is wrong, and where) exactly as it does without this module.  The
 * answer is
 *
 *   (first, colors, winner, disqualified, hand1, hand2, deck, moves, totals)
 *
 * the player to move, the colour count, the winner and the disqualified
 * player as the replay says them (checked against the actions); the opening
 * hands and the deck as the replay's bytes; the moves (Move tuples with
 * their spans, made here); and the rules' totals of the two seats when the
 * deck is spent and no one was disqualified (None otherwise: the round is
 * unfinished, and its result is "*").
 *
 * line, line_start, width and columns say where the replay string stands:
 * on line `line` (which starts at offset line_start + 1), `width`
 * characters, character i at column columns[i] (columns: a list of width + 1
 * columns, or an int, the column of character 0 when each character takes
 * one column).
 *
 * It accepts a subset of what Python decodes cleanly: any replay Python
 * refuses is None, and so is one whose expeditions fall outside the score
 * tables it was handed (more wagers, numbers or points than one colour of
 * the deck holds).
 *
 * The version, the colour counts, which bytes are cards (and the placement
 * of each, played or discarded), the draws, which value is a wager, the
 * scores of an expedition (the rules' and the engine's, by its wagers, its
 * numbers and their sum, computed by Python's scoring) and the Move and
 * Span types are not written here: configure() receives them from
 * metapyziks.py.  What is written here is the layout of the bytes.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_tuples.h"

#define MAXCOLORS 15   /* colour numbers a draw can name (4 bits) */
#define UNSCORED (-0x7fffffff)
#define MAXTABLE 65536

static struct {
    int ready;
    int version;
    int counts[16];                  /* counts[c]: c is a colour count of the engine */
    int colors;                      /* the engine's colours */
    int wager;                       /* the value of a wager */
    int wagers, numbers, most;       /* the score tables' bounds */
    int *rules, *engine;             /* [w][k][s]: an expedition's scores */
    PyObject *placed;                /* tuple: code * 2 + discard -> Placement or None */
    PyObject *draws;                 /* tuple: colour number (0: the deck) -> Draw */
    PyTypeObject *move, *span;
} T;

static int fail(const char *message)
{
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

static int six_fields(PyObject *type, const char *what)
{
    if (!PyType_Check(type) || !PyType_IsSubtype((PyTypeObject *)type, &PyTuple_Type))
        return fail(what);
    return 0;
}

/* A score table: n ints (or None, UNSCORED) from the sequence seq. */
static int *scores_of(PyObject *seq, Py_ssize_t n, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    int *out;
    Py_ssize_t i;
    if (fast == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        fail(what);
        return NULL;
    }
    out = PyMem_Malloc((size_t)n * sizeof(int));
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        long v;
        if (item == Py_None) {
            out[i] = UNSCORED;
            continue;
        }
        v = PyLong_AsLong(item);
        if ((v == -1 && PyErr_Occurred()) || v < -100000 || v > 100000) {
            if (!PyErr_Occurred())
                fail(what);
            Py_DECREF(fast);
            PyMem_Free(out);
            return NULL;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return out;
}

static PyObject *configure(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *keywords[] = {"version", "counts", "placed", "draws", "wager", "wagers",
                               "numbers", "most", "rules", "engine", "move", "span", NULL};
    PyObject *counts, *placed, *draws, *rules, *engine, *move, *span, *fast;
    int version, wager, wagers, numbers, most, i;
    Py_ssize_t size;
    int *rules_table, *engine_table;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "iOO!O!iiiiOOOO", keywords, &version, &counts,
                                     &PyTuple_Type, &placed, &PyTuple_Type, &draws, &wager,
                                     &wagers, &numbers, &most, &rules, &engine, &move, &span))
        return NULL;
    T.ready = 0;
    if (version < 0 || version > 255) {
        fail("version: a byte expected");
        return NULL;
    }
    if (PyTuple_GET_SIZE(placed) != 512) {
        fail("placed: a placement (or None) for each byte, played and discarded, expected");
        return NULL;
    }
    if (PyTuple_GET_SIZE(draws) < 2 || PyTuple_GET_SIZE(draws) > MAXCOLORS + 1) {
        fail("draws: the deck's and each colour's expected");
        return NULL;
    }
    if (wager < 0 || wager > 15 || wagers < 0 || wagers > 15 || numbers < 0 || numbers > 15
        || most < 0 || most > 255) {
        fail("wager, wagers, numbers, most: small bounds expected");
        return NULL;
    }
    fast = PySequence_Fast(counts, "counts: a sequence expected");
    if (fast == NULL)
        return NULL;
    memset(T.counts, 0, sizeof T.counts);
    for (i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        if (v < 1 || v >= PyTuple_GET_SIZE(draws)) {
            Py_DECREF(fast);
            fail("counts: colour counts the draws cover expected");
            return NULL;
        }
        T.counts[v] = 1;
    }
    Py_DECREF(fast);
    if (six_fields(move, "move: a tuple type expected") < 0
        || six_fields(span, "span: a tuple type expected") < 0)
        return NULL;
    size = (Py_ssize_t)(wagers + 1) * (numbers + 1) * (most + 1);
    rules_table = scores_of(rules, size, "rules: a score for each wagers, numbers, sum");
    if (rules_table == NULL)
        return NULL;
    engine_table = scores_of(engine, size, "engine: a score for each wagers, numbers, sum");
    if (engine_table == NULL) {
        PyMem_Free(rules_table);
        return NULL;
    }
    PyMem_Free(T.rules);
    PyMem_Free(T.engine);
    T.rules = rules_table;
    T.engine = engine_table;
    Py_INCREF(placed);
    Py_INCREF(draws);
    Py_INCREF(move);
    Py_INCREF(span);
    Py_XDECREF(T.placed);
    Py_XDECREF(T.draws);
    Py_XDECREF((PyObject *)T.move);
    Py_XDECREF((PyObject *)T.span);
    T.placed = placed;
    T.draws = draws;
    T.move = (PyTypeObject *)move;
    T.span = (PyTypeObject *)span;
    T.version = version;
    T.colors = (int)PyTuple_GET_SIZE(draws) - 1;
    T.wager = wager;
    T.wagers = wagers;
    T.numbers = numbers;
    T.most = most;
    T.ready = 1;
    Py_RETURN_NONE;
}

/* Whether byte code is a card of a replay of `colors` colours. */
static int is_card(int code, int colors)
{
    return (code >> 4) >= 1 && (code >> 4) <= colors
           && PyTuple_GET_ITEM(T.placed, code * 2) != Py_None;
}

/* Where an expedition stands: its wagers, its numbers and their sum. */
typedef struct {
    int wagers, numbers, sum;
} Expedition;

/* The score of expedition e by table (rules or engine); UNSCORED when it
 * is outside the table. */
static int scored(const int *table, const Expedition *e)
{
    if (e->wagers > T.wagers || e->numbers > T.numbers || e->sum > T.most)
        return UNSCORED;
    return table[(e->wagers * (T.numbers + 1) + e->numbers) * (T.most + 1) + e->sum];
}

static PyObject *replay(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *data, *columns, *moves = NULL, *empty = NULL, *answer = NULL, *totals;
    const unsigned char *d;
    Py_ssize_t n, pos, line, line_start, width, base = 0, count, turn;
    Py_ssize_t starts[6], lengths[6];
    int colors, winner, disqualified, first, seat, i, c;
    long claimed[2] = {0, 0};
    /* The table: hands (0: a card that cannot be known), the deck drawn
     * from its end, the discard piles, the expeditions. */
    unsigned char hands[2][256], deck[256], *piles = NULL;
    int hand_n[2], deck_n, pile_n[MAXCOLORS + 1];
    Expedition played[2][MAXCOLORS + 1];
    long engine[2], rules[2];

    if (nargs != 5 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "replay(data, line, line_start, width, columns)");
        return NULL;
    }
    if (!T.ready) {
        PyErr_SetString(PyExc_RuntimeError, "configure() first");
        return NULL;
    }
    data = args[0];
    line = PyLong_AsSsize_t(args[1]);
    line_start = PyLong_AsSsize_t(args[2]);
    width = PyLong_AsSsize_t(args[3]);
    if ((line == -1 || line_start == -1 || width == -1) && PyErr_Occurred())
        return NULL;
    columns = args[4];
    if (PyLong_Check(columns)) {
        base = PyLong_AsSsize_t(columns);
        if (base == -1 && PyErr_Occurred())
            return NULL;
        columns = NULL;
    } else if (!PyList_Check(columns) || PyList_GET_SIZE(columns) != width + 1) {
        Py_RETURN_NONE;
    }
    d = (const unsigned char *)PyBytes_AS_STRING(data);
    n = PyBytes_GET_SIZE(data);

    /* The header. */
    if (n < 5 || d[0] != T.version || d[1] > 15 || !T.counts[d[1]] || d[2] > 2 || d[3] > 2)
        Py_RETURN_NONE;
    colors = d[1];
    winner = d[2];
    disqualified = d[3];
    pos = 4;
    if (disqualified) {
        if (pos + 8 > n)
            Py_RETURN_NONE;
        for (i = 0; i < 2; i++, pos += 4)
            claimed[i] = (long)(int32_t)((uint32_t)d[pos] | (uint32_t)d[pos + 1] << 8
                                         | (uint32_t)d[pos + 2] << 16
                                         | (uint32_t)d[pos + 3] << 24);
    }
    if (pos >= n || (d[pos] != 1 && d[pos] != 2))
        Py_RETURN_NONE;
    first = d[pos++];
    /* The six lists: the deck, the discard piles, each player's expeditions
     * and hand; the piles and the expeditions empty. */
    for (i = 0; i < 6; i++) {
        Py_ssize_t k;
        if (pos >= n)
            Py_RETURN_NONE;
        lengths[i] = d[pos++];
        starts[i] = pos;
        if (pos + lengths[i] > n || (lengths[i] && (i == 1 || i == 2 || i == 4)))
            Py_RETURN_NONE;
        for (k = 0; k < lengths[i]; k++)
            if (!is_card(d[pos + k], colors))
                Py_RETURN_NONE;
        pos += lengths[i];
    }
    if (pos + 4 > n)
        Py_RETURN_NONE;
    count = (Py_ssize_t)(int32_t)((uint32_t)d[pos] | (uint32_t)d[pos + 1] << 8
                                  | (uint32_t)d[pos + 2] << 16 | (uint32_t)d[pos + 3] << 24);
    pos += 4;
    if (count < 0 || count != n - pos)   /* every byte after the count an action */
        Py_RETURN_NONE;

    deck_n = (int)lengths[0];
    memcpy(deck, d + starts[0], (size_t)deck_n);
    hand_n[0] = (int)lengths[3];
    memcpy(hands[0], d + starts[3], (size_t)hand_n[0]);
    hand_n[1] = (int)lengths[5];
    memcpy(hands[1], d + starts[5], (size_t)hand_n[1]);
    memset(pile_n, 0, sizeof pile_n);
    memset(played, 0, sizeof played);
    /* Each pile holds at most every card of the replay: 3 lists of 255. */
    piles = PyMem_Malloc((size_t)(MAXCOLORS + 1) * 768);
    moves = PyTuple_New(count);
    empty = PyTuple_New(0);
    if (piles == NULL || moves == NULL || empty == NULL) {
        if (piles == NULL)
            PyErr_NoMemory();
        goto out;
    }

    seat = first - 1;
    for (turn = 0; turn < count; turn++) {
        Py_ssize_t offset = pos + turn, first_char, begin, end;
        int code = d[offset], index = code & 7, discard = (code & 8) != 0, draw = code >> 4;
        unsigned char *hand = hands[seat];
        PyObject *items[6], *move;
        if (draw > colors || index >= hand_n[seat] || hand[index] == 0)
            goto none;
        c = hand[index];
        memmove(hand + index, hand + index + 1, (size_t)(hand_n[seat] - index - 1));
        hand_n[seat]--;
        if (discard) {
            piles[(c >> 4) * 768 + pile_n[c >> 4]++] = (unsigned char)c;
        } else {
            Expedition *e = &played[seat][c >> 4];
            if ((c & 15) == T.wager)
                e->wagers++;
            else
                e->numbers++, e->sum += c & 15;
        }
        if (draw == 0)
            hand[hand_n[seat]++] = deck_n ? deck[--deck_n] : 0;
        else
            hand[hand_n[seat]++] = pile_n[draw] ? piles[draw * 768 + --pile_n[draw]] : 0;
        /* The move, its span the base64 characters of its byte. */
        first_char = 4 * (offset / 3) + offset % 3;
        begin = first_char < width ? first_char : width;
        end = first_char + 2 < width ? first_char + 2 : width;
        if (columns == NULL) {
            begin += base;
            end += base;
        } else {
            begin = PyLong_AsSsize_t(PyList_GET_ITEM(columns, begin));
            end = PyLong_AsSsize_t(PyList_GET_ITEM(columns, end));
            if ((begin == -1 || end == -1) && PyErr_Occurred())
                goto out;
        }
        items[0] = PyTuple_GET_ITEM(T.placed, c * 2 + discard);
        items[1] = PyTuple_GET_ITEM(T.draws, draw);
        Py_INCREF(items[0]);
        Py_INCREF(items[1]);
        Py_INCREF(empty);
        Py_INCREF(Py_None);
        items[2] = empty;
        items[3] = Py_None;
        items[4] = ssize(turn);
        {
            PyObject *where[6] = {ssize(line), ssize(begin), ssize(line), ssize(end),
                                  ssize(line_start + begin), ssize(line_start + end)};
            items[5] = made(T.span, where, 6);
        }
        move = made(T.move, items, 6);
        if (move == NULL)
            goto out;
        PyTuple_SET_ITEM(moves, turn, move);
        seat = 1 - seat;
    }

    /* The scores: the engine's (the winner, the scores after a
     * disqualification) and the rules' (the result). */
    for (seat = 0; seat < 2; seat++) {
        engine[seat] = rules[seat] = 0;
        for (c = 1; c <= colors; c++) {
            Expedition *e = &played[seat][c];
            int a, b;
            if (e->wagers == 0 && e->numbers == 0)
                continue;
            a = scored(T.engine, e);
            b = scored(T.rules, e);
            if (a == UNSCORED || b == UNSCORED)
                goto none;
            engine[seat] += a;
            rules[seat] += b;
        }
    }
    if (disqualified) {
        if (claimed[0] != engine[0] || claimed[1] != engine[1] || winner != 3 - disqualified)
            goto none;
    } else if (winner != (engine[0] == engine[1] ? 0 : engine[0] > engine[1] ? 1 : 2)) {
        goto none;
    }
    if (deck_n == 0 && !disqualified)
        totals = Py_BuildValue("(ll)", rules[0], rules[1]);
    else {
        totals = Py_None;
        Py_INCREF(totals);
    }
    if (totals == NULL)
        goto out;
    answer = Py_BuildValue("(iiiiy#y#y#ON)", first, colors, winner, disqualified,
                           (const char *)d + starts[3], lengths[3], (const char *)d + starts[5],
                           lengths[5], (const char *)d + starts[0], lengths[0], moves, totals);
    goto out;
none:
    answer = Py_None;
    Py_INCREF(answer);
out:
    Py_XDECREF(moves);
    Py_XDECREF(empty);
    PyMem_Free(piles);
    return answer;
}

static PyMethodDef methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     "configure(**tables): the engine's bytes, placements, draws and scores, from Python "
     "(metapyziks.py)."},
    {"replay", (PyCFunction)(void (*)(void))replay, METH_FASTCALL,
     "replay(data, line, line_start, width, columns): the replay decoded as metapyziks.py "
     "decodes it, or None."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_metapyziks",
                                    "The compiled decoder of Metapyziks/lost-cities replays.",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__metapyziks(void)
{
    return PyModule_Create(&module);
}
