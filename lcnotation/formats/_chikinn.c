/* The compiled reader of chikinn/lost-cities transcripts (issue 25 item 5).
 *
 * round(text, pos, line) reads the round that starts at offset pos (line
 * index line) of a transcript, as lcnotation/formats/chikinn.py's
 * _Reader.whole_round reads it, and either answers what that reader would
 * make of it or None: "look closer", and the round goes the Python way,
 * which reads it (or says what is wrong) exactly as it does without this
 * module.  The answer is
 *
 *   (number, name1, name2, hand1, hand2, deal, known, unknown,
 *    score1, score2, moves, span, pos, line)
 *
 * the round's number; the players' names; the opening hands and the deal
 * (the cards drawn from the draw pile, then the cards never shown, in the
 * order of the configured cards) as bytes of card indices; how many cards
 * of the deal the transcript shows and how many drawn cards it does not;
 * the final scores; the moves (Move tuples, with their spans, made here);
 * the round's Span; and the offset and line index after it.  Python
 * (chikinn.py) makes the game's headers and notes from these, as it does for
 * a round it reads itself.
 *
 * It accepts a subset of what the Python reader reads cleanly: a text whose
 * characters are one byte each (PEP 393's 1-byte kind), the round as the
 * engine prints it, and nothing the Python reader would refuse or warn of:
 *
 *   "\n"* "ROUND " digits ":" "\n"
 *   turns, each:
 *     NAME ": " CARD (" " CARD)* "\n"         NAME printable ASCII, no ':'
 *     " "+ ("Plays " | "Discards ") CARD "\n"
 *     [" "+ "Draws " CARD "\n"]
 *     ("\n" | " " ANY* "\n")*                 the table
 *     "---" "-"* "\n"
 *   "\n"* "Player 0 scores " INT "\n" "Player 1 scores " INT ("\n" | end)
 *   ["Winner: " NAME " "* ("\n" | end)]       the best score's name
 *
 * and the rebuild's checks (the players take turns, the card placed is in
 * the hand shown, each hand is the one before less the card placed plus
 * one, a card drawn from a pile is the one the next hand gained, no card
 * shown more often than the deck holds it).  Anything else is None.
 *
 * The cards (the engine's two-character tokens), how many copies of each
 * the deck holds, their order in a header, the parts of a move shared by
 * every move that says the same (placements, draws) and the Move and Span
 * types are not written here: configure() receives them from chikinn.py.
 * What is written here is the shape of the transcript.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "_tuples.h"

#define MAXCARDS 128   /* kinds of card */
#define MAXHAND 64     /* cards a hand line may show here */
#define DASHES 128     /* dashes compared at once */

static char dashes[DASHES];

static struct {
    int ready;
    int ncards;
    int total;                       /* cards of the deck */
    signed char card_of[128][128];   /* a token's card index, -1: none */
    int copies[MAXCARDS];
    int ordered[MAXCARDS];           /* the card indices in a header's order */
    PyObject *placed;                /* tuple: card * 2 + discard -> Placement */
    PyObject *drawn;                 /* tuple: card -> the Draw of its suit's pile */
    PyObject *deck;                  /* the Draw of the draw pile */
    PyTypeObject *move, *span;       /* tuple subclasses of six fields */
} T;

static int fail(const char *message)
{
    PyErr_SetString(PyExc_ValueError, message);
    return -1;
}

static int ints_of(PyObject *seq, int *out, int count, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    int i;
    if (fast == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        return fail(what);
    }
    for (i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < 0 || v > 1000) {
            Py_DECREF(fast);
            return fail(what);
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static int six_fields(PyObject *type, const char *what)
{
    if (!PyType_Check(type) || !PyType_IsSubtype((PyTypeObject *)type, &PyTuple_Type))
        return fail(what);
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *keywords[] = {"cards", "copies", "ordered", "placed", "drawn", "deck", "move",
                               "span", NULL};
    PyObject *cards, *copies, *ordered, *placed, *drawn, *deck, *move, *span, *fast;
    int i, n, seen[MAXCARDS];

    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOO!O!OOO", keywords, &cards, &copies,
                                     &ordered, &PyTuple_Type, &placed, &PyTuple_Type, &drawn,
                                     &deck, &move, &span))
        return NULL;
    T.ready = 0;
    fast = PySequence_Fast(cards, "cards: a sequence expected");
    if (fast == NULL)
        return NULL;
    n = (int)PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > MAXCARDS) {
        Py_DECREF(fast);
        fail("cards: 1 to 128 expected");
        return NULL;
    }
    memset(T.card_of, -1, sizeof T.card_of);
    for (i = 0; i < n; i++) {
        PyObject *token = PySequence_Fast_GET_ITEM(fast, i);
        Py_UCS4 a, b;
        if (!PyUnicode_Check(token) || PyUnicode_GET_LENGTH(token) != 2) {
            Py_DECREF(fast);
            fail("cards: tokens of two characters expected");
            return NULL;
        }
        a = PyUnicode_READ_CHAR(token, 0);
        b = PyUnicode_READ_CHAR(token, 1);
        /* A card is two printable ASCII characters that are neither a blank
         * nor the ':' of a name, and no card twice. */
        if (a <= ' ' || a >= 127 || b <= ' ' || b >= 127 || a == ':' || b == ':'
            || T.card_of[a][b] != -1) {
            Py_DECREF(fast);
            fail("cards: distinct printable ASCII tokens expected");
            return NULL;
        }
        T.card_of[a][b] = (signed char)i;
    }
    Py_DECREF(fast);
    if (ints_of(copies, T.copies, n, "copies: a count for each card expected") < 0
        || ints_of(ordered, T.ordered, n, "ordered: each card once expected") < 0)
        return NULL;
    memset(seen, 0, sizeof seen);
    T.total = 0;
    for (i = 0; i < n; i++) {
        T.total += T.copies[i];
        if (T.ordered[i] >= n || seen[T.ordered[i]]++) {
            fail("ordered: each card once expected");
            return NULL;
        }
    }
    if (PyTuple_GET_SIZE(placed) != 2 * n || PyTuple_GET_SIZE(drawn) != n) {
        fail("placed and drawn: one for each card (and discard) expected");
        return NULL;
    }
    if (six_fields(move, "move: a tuple type expected") < 0
        || six_fields(span, "span: a tuple type expected") < 0)
        return NULL;
    Py_INCREF(placed);
    Py_INCREF(drawn);
    Py_INCREF(deck);
    Py_INCREF(move);
    Py_INCREF(span);
    Py_XDECREF(T.placed);
    Py_XDECREF(T.drawn);
    Py_XDECREF(T.deck);
    Py_XDECREF((PyObject *)T.move);
    Py_XDECREF((PyObject *)T.span);
    T.placed = placed;
    T.drawn = drawn;
    T.deck = deck;
    T.move = (PyTypeObject *)move;
    T.span = (PyTypeObject *)span;
    T.ncards = n;
    T.ready = 1;
    Py_RETURN_NONE;
}

/* One turn as read. */
typedef struct {
    Py_ssize_t name, name_len;       /* offset and length of the name, without its spaces */
    Py_ssize_t hand, hand_n;         /* where its cards are in the hands' buffer, how many */
    int card, discard, draw;         /* draw: the card taken from a pile, -1: none */
    Py_ssize_t action_line;          /* index of the action line */
    Py_ssize_t column, end_line, end_column, begin, end;   /* the span of the card(s) */
} Turn;

typedef struct {
    Turn *turns;
    Py_ssize_t nturns, turns_cap;
    unsigned char *cards;            /* every hand's cards, one after another */
    Py_ssize_t ncards, cards_cap;
} Round;

static int grow(void **buffer, Py_ssize_t *cap, Py_ssize_t need, size_t size)
{
    Py_ssize_t cap2;
    void *more;
    if (need <= *cap)
        return 0;
    cap2 = *cap ? *cap * 2 : 64;
    while (cap2 < need)
        cap2 *= 2;
    more = PyMem_Realloc(*buffer, (size_t)cap2 * size);
    if (more == NULL)
        return -1;
    *buffer = more;
    *cap = cap2;
    return 0;
}

static int card_at(const unsigned char *s, Py_ssize_t n, Py_ssize_t i)
{
    if (i + 2 > n || s[i] >= 128 || s[i + 1] >= 128)
        return -1;
    return T.card_of[s[i]][s[i + 1]];
}

static int starts(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, const char *word)
{
    size_t len = strlen(word);
    return i + (Py_ssize_t)len <= n && memcmp(s + i, word, len) == 0;
}

/* The end of the line at i (its '\n', or n). */
static Py_ssize_t line_end(const unsigned char *s, Py_ssize_t n, Py_ssize_t i)
{
    const unsigned char *nl = memchr(s + i, '\n', (size_t)(n - i));
    return nl == NULL ? n : nl - s;
}

/* An integer of 1 to 18 digits, perhaps after '-', from i to the end e of
 * its line; 0, or -1 for anything else. */
static int number_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t e, int sign,
                     long long *value)
{
    long long v = 0;
    int negative = 0;
    if (sign && i < e && s[i] == '-') {
        negative = 1;
        i++;
    }
    if (e - i < 1 || e - i > 18)
        return -1;
    for (; i < e; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *value = negative ? -v : v;
    return 0;
}

/* Read a turn at *pos (line index *line); 0, or -1: not one of this shape. */
static int read_turn(const unsigned char *s, Py_ssize_t n, Py_ssize_t *pos, Py_ssize_t *line,
                     Round *r)
{
    Py_ssize_t i = *pos, e = line_end(s, n, i), colon, k, action, card_at_, hand_n = 0;
    Turn *t;
    int c;

    if (e >= n || s[i] == ' ' || starts(s, e, i, "Winner: "))
        return -1;
    for (colon = i; colon < e && s[colon] != ':'; colon++)
        if (s[colon] < ' ' || s[colon] >= 127)
            return -1;
    if (colon + 1 >= e || s[colon + 1] != ' ' || colon == i)
        return -1;
    if (grow((void **)&r->turns, &r->turns_cap, r->nturns + 1, sizeof(Turn)) < 0
        || grow((void **)&r->cards, &r->cards_cap, r->ncards + MAXHAND, 1) < 0)
        return -2;
    t = &r->turns[r->nturns];
    t->name = i;
    for (k = colon; k > i && s[k - 1] == ' '; k--)
        ;
    t->name_len = k - i;
    t->hand = r->ncards;
    for (k = colon + 2;; k += 3) {       /* CARD (" " CARD)* "\n" */
        c = card_at(s, e, k);
        if (c < 0 || hand_n == MAXHAND)
            return -1;
        r->cards[r->ncards + hand_n++] = (unsigned char)c;
        if (k + 2 == e)
            break;
        if (s[k + 2] != ' ')
            return -1;
    }
    t->hand_n = hand_n;
    /* The action line. */
    action = e + 1;
    e = line_end(s, n, action);
    if (e >= n)
        return -1;
    for (k = action; k < e && s[k] == ' '; k++)
        ;
    if (k == action)
        return -1;
    if (starts(s, e, k, "Plays "))
        t->discard = 0, card_at_ = k + 6;
    else if (starts(s, e, k, "Discards "))
        t->discard = 1, card_at_ = k + 9;
    else
        return -1;
    if (card_at_ + 2 != e || (t->card = card_at(s, e, card_at_)) < 0)
        return -1;
    t->action_line = *line + 1;
    t->column = card_at_ - action + 1;
    t->begin = card_at_;
    t->draw = -1;
    t->end_line = t->action_line + 1;
    t->end_column = t->column + 2;
    t->end = card_at_ + 2;
    *line += 2;
    i = e + 1;
    /* A draw from a pile, on the line after. */
    for (k = i; k < n && s[k] == ' '; k++)
        ;
    if (k > i && starts(s, n, k, "Draws")) {
        e = line_end(s, n, i);
        if (e >= n || !starts(s, e, k, "Draws ") || k + 8 != e
            || (t->draw = card_at(s, e, k + 6)) < 0)
            return -1;
        t->end_line = t->action_line + 2;
        t->end = e;
        t->end_column = e - i + 1;
        *line += 1;
        i = e + 1;
    }
    /* The table, and the line of dashes that ends the turn. */
    for (;;) {
        if (i >= n)
            return -1;
        e = line_end(s, n, i);
        if (e >= n)
            return -1;   /* a turn ends with a line end (the scores follow) */
        *line += 1;
        if (s[i] == '-') {
            for (k = i; k < e; k += DASHES)   /* the line is dashes, DASHES at a time */
                if (memcmp(s + k, dashes, (size_t)(e - k < DASHES ? e - k : DASHES)) != 0)
                    return -1;
            if (e - i < 3)
                return -1;
            i = e + 1;
            break;
        }
        if (s[i] != '\n' && s[i] != ' ')
            return -1;
        i = e + 1;
    }
    *pos = i;
    r->ncards += hand_n;
    r->nturns++;
    return 0;
}

static PyObject *span_of(Py_ssize_t line, Py_ssize_t column, Py_ssize_t end_line,
                         Py_ssize_t end_column, Py_ssize_t start, Py_ssize_t end)
{
    PyObject *items[6] = {ssize(line), ssize(column), ssize(end_line), ssize(end_column),
                          ssize(start), ssize(end)};
    return made(T.span, items, 6);
}

/* The rebuild's checks and the game's parts; the answer, or None. */
static PyObject *rebuilt(PyObject *text, const unsigned char *s, Round *r, long long number,
                         Py_ssize_t round_at, Py_ssize_t round_line, long long score1,
                         long long score2, Py_ssize_t last, Py_ssize_t last_begin,
                         Py_ssize_t last_end, Py_ssize_t pos, Py_ssize_t line)
{
    Py_ssize_t t, k, count = r->nturns, known = 0, unknown = 0, ndeal = 0;
    int held[MAXCARDS], seen[MAXCARDS];
    unsigned char *deal;
    PyObject *moves, *answer = NULL, *span, *empty;

    deal = PyMem_Malloc((size_t)(count + T.total + 1));
    if (deal == NULL)
        return PyErr_NoMemory();
    memset(seen, 0, sizeof seen);
    for (t = 0; t < count; t++) {
        Turn *turn = &r->turns[t], *first = &r->turns[t % 2];
        const unsigned char *hand = r->cards + turn->hand;
        int in_hand = 0, got = -1;
        if (turn->name_len != first->name_len
            || memcmp(s + turn->name, s + first->name, (size_t)turn->name_len) != 0)
            goto none;   /* the players take turns */
        for (k = 0; k < turn->hand_n; k++)
            in_hand |= hand[k] == turn->card;
        if (!in_hand)
            goto none;
        if (t + 2 < count) {
            Turn *after = &r->turns[t + 2];
            const unsigned char *next = r->cards + after->hand;
            int placed = 0;
            if (after->hand_n != turn->hand_n)
                goto none;
            for (k = 0; k < after->hand_n; k++)
                held[next[k]] = 0;
            for (k = 0; k < turn->hand_n; k++)
                held[hand[k]] = 0;
            for (k = 0; k < after->hand_n; k++)
                held[next[k]]++;
            for (k = 0; k < turn->hand_n; k++) {
                if (hand[k] == turn->card && !placed) {
                    placed = 1;
                    continue;
                }
                if (--held[hand[k]] < 0)
                    goto none;
            }
            for (k = 0; k < after->hand_n; k++)   /* the one card left */
                if (held[next[k]])
                    got = next[k];
            if (turn->draw >= 0 && got != turn->draw)
                goto none;
            if (turn->draw < 0) {
                deal[known++] = (unsigned char)got;
                seen[got]++;
            }
        } else if (turn->draw < 0) {
            unknown++;
        }
    }
    for (t = 0; t < 2; t++)
        for (k = 0; k < r->turns[t].hand_n; k++)
            seen[r->cards[r->turns[t].hand + k]]++;
    ndeal = known;
    for (k = 0; k < T.ncards; k++) {
        int c = T.ordered[k], left = T.copies[c] - seen[c];
        if (left < 0)
            goto none;   /* a card shown more often than the deck holds it */
        while (left-- > 0)
            deal[ndeal++] = (unsigned char)c;
    }
    moves = PyTuple_New(count);
    empty = PyTuple_New(0);
    if (moves == NULL || empty == NULL) {
        Py_XDECREF(moves);
        Py_XDECREF(empty);
        goto done;
    }
    for (t = 0; t < count; t++) {
        Turn *turn = &r->turns[t];
        PyObject *placement = PyTuple_GET_ITEM(T.placed, turn->card * 2 + turn->discard);
        PyObject *source = turn->draw < 0 ? T.deck : PyTuple_GET_ITEM(T.drawn, turn->draw);
        PyObject *items[6];
        Py_INCREF(placement);
        Py_INCREF(source);
        Py_INCREF(empty);
        Py_INCREF(Py_None);
        items[0] = placement;
        items[1] = source;
        items[2] = empty;
        items[3] = Py_None;
        items[4] = ssize(t);
        items[5] = span_of(turn->action_line + 1, turn->column, turn->end_line,
                           turn->end_column, turn->begin, turn->end);
        items[0] = made(T.move, items, 6);
        if (items[0] == NULL) {
            Py_DECREF(moves);
            Py_DECREF(empty);
            goto done;
        }
        PyTuple_SET_ITEM(moves, t, items[0]);
    }
    Py_DECREF(empty);
    span = span_of(round_line + 1, 1, last + 1, last_end - last_begin + 1, round_at, last_end);
    if (span == NULL) {
        Py_DECREF(moves);
        goto done;
    }
    {
        Turn *a = &r->turns[0], *b = &r->turns[1];
        answer = Py_BuildValue(
            "(LNNNNNnnLLNNnn)", number, PyUnicode_Substring(text, a->name, a->name + a->name_len),
            PyUnicode_Substring(text, b->name, b->name + b->name_len),
            PyBytes_FromStringAndSize((const char *)r->cards + a->hand, a->hand_n),
            PyBytes_FromStringAndSize((const char *)r->cards + b->hand, b->hand_n),
            PyBytes_FromStringAndSize((const char *)deal, ndeal), known, unknown, score1,
            score2, moves, span, pos, line);
    }
    goto done;
none:
    answer = Py_None;
    Py_INCREF(answer);
done:
    PyMem_Free(deal);
    return answer;
}

static PyObject *round_(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *text, *answer = NULL;
    const unsigned char *s;
    Py_ssize_t n, pos, line, e, round_at, round_line, last, last_begin, last_end;
    long long number, score1, score2;
    Round r = {NULL, 0, 0, NULL, 0, 0};
    int got;

    if (nargs != 3 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "round(text, pos, line) expected");
        return NULL;
    }
    text = args[0];
    pos = PyLong_AsSsize_t(args[1]);
    line = PyLong_AsSsize_t(args[2]);
    if ((pos == -1 || line == -1) && PyErr_Occurred())
        return NULL;
    if (!T.ready) {
        PyErr_SetString(PyExc_RuntimeError, "configure() first");
        return NULL;
    }
    n = PyUnicode_GET_LENGTH(text);
    if (PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND || pos < 0 || pos > n || line < 0)
        Py_RETURN_NONE;
    s = PyUnicode_1BYTE_DATA(text);
    /* Blank lines, and the round's first line. */
    while (pos < n && s[pos] == '\n')
        pos++, line++;
    e = line_end(s, n, pos);
    if (e >= n || !starts(s, e, pos, "ROUND ") || e - pos < 8 || s[e - 1] != ':'
        || number_at(s, pos + 6, e - 1, 0, &number) < 0)
        Py_RETURN_NONE;
    round_at = pos;
    round_line = line;
    pos = e + 1;
    line++;
    /* The turns, up to the scores. */
    for (;;) {
        Py_ssize_t at = pos, at_line = line;
        while (at < n && s[at] == '\n')
            at++, at_line++;
        if (starts(s, n, at, "Player 0 scores ")) {
            pos = at;
            line = at_line;
            break;
        }
        got = read_turn(s, n, &pos, &line, &r);
        if (got == -2) {
            PyErr_NoMemory();
            goto out;
        }
        if (got < 0)
            goto none;
    }
    if (r.nturns < 2)
        goto none;
    e = line_end(s, n, pos);
    if (e >= n || number_at(s, pos + 16, e, 1, &score1) < 0)
        goto none;
    pos = e + 1;
    line++;
    e = line_end(s, n, pos);
    if (!starts(s, e, pos, "Player 1 scores ") || number_at(s, pos + 16, e, 1, &score2) < 0)
        goto none;
    last = line;
    last_begin = pos;
    last_end = e;
    pos = e < n ? e + 1 : n;
    line++;
    if (pos < n && s[pos] == 'W') {     /* the winner: the first of the best scores */
        Turn *best = &r.turns[score1 >= score2 ? 0 : 1];
        Py_ssize_t k;
        e = line_end(s, n, pos);
        if (!starts(s, e, pos, "Winner: "))
            goto none;
        for (k = e; k > pos && s[k - 1] == ' '; k--)
            ;
        if (k - (pos + 8) != best->name_len   /* (a name is printable ASCII) */
            || memcmp(s + pos + 8, s + best->name, (size_t)best->name_len) != 0)
            goto none;
        last = line;
        last_begin = pos;
        last_end = pos + 8 + best->name_len;
        pos = e < n ? e + 1 : n;
        line++;
    }
    answer = rebuilt(text, s, &r, number, round_at, round_line, score1, score2, last,
                     last_begin, last_end, pos, line);
    goto out;
none:
    answer = Py_None;
    Py_INCREF(answer);
out:
    PyMem_Free(r.turns);
    PyMem_Free(r.cards);
    return answer;
}

static PyMethodDef methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     "configure(**tables): the cards and the parts of a move, from Python (chikinn.py)."},
    {"round", (PyCFunction)(void (*)(void))round_, METH_FASTCALL,
     "round(text, pos, line): the round at pos read as chikinn.py reads it, or None."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_chikinn",
                                    "The compiled reader of chikinn/lost-cities transcripts.",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__chikinn(void)
{
    memset(dashes, '-', sizeof dashes);
    return PyModule_Create(&module);
}
