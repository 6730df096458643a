/* The compiled accelerator of lint's fused path (issue 25 item 1).
 *
 * check(text, default_colors) looks at the text of one game and answers
 * either (moves, discarded, total1, total2) -- the game is clean: linting
 * it finds nothing, it has this many moves, some of them discard (for the
 * file's first discard marker), and these are the final scores -- or None:
 * "look closer", and the game goes the Python way (lcnotation/lostcities/
 * fused.py, then the tree path), which says what is wrong.  "Clean" is the
 * only answer it gives, so it cannot change a report; it accepts a subset of
 * what fused.clean_moves accepts, and at the least doubt it says None.
 * tests/test_speedups.py holds it to the Python path.
 *
 * The lexical and rules tables (colour letters, rank spellings, the card
 * words of the deal headers, the known tags, copies of each card, the hand
 * size, the draw pile after the deal, the scores of an expedition) are not
 * written here: configure() receives them from Python (lostcities/accel.py),
 * which takes them from the modules that own them.  What is written here is
 * the shape of what is read, a strict subset of the grammar's:
 *
 *   - white space is ' ', '\t' and '\n' (anything else: None);
 *   - header lines first: '[' NAME blanks '"' value '"' blanks ']', each at
 *     the start of its line, the value without '\\' or line breaks;
 *   - then tokens separated by white space, each a move (colour, rank,
 *     optional discard marker, hyphen, draw) or a move number "N." that
 *     is its turn's, followed by its move on the same line;
 *   - no comments, nothing else (None).
 *
 * The replay is GameState.play_quietly's, on arrays.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <string.h>

#define MAXC 26        /* colours a game may have here */
#define NR 16          /* rank values 0 .. NR-1 */
#define MAXH 32        /* headers of a game on this way */
#define MAXDECK 512    /* cards of a deal */
#define PILEMAX 64     /* cards of one colour */
#define MAXWORD 4      /* characters of a rank spelling */
#define MAXTAGS 64
#define TAGLEN 32

typedef struct {
    int len;
    char text[MAXWORD];
    int value;
} Word;

static struct {
    int ready;
    /* moves */
    unsigned char move_color[128];   /* a colour letter of a move (plain: upper case) */
    Word ranks[NR];
    int nranks;
    unsigned char discard[128];      /* a plain discard marker */
    unsigned char pile[128];         /* a plain letter of the draw pile */
    Py_UCS4 minus;
    /* deal headers */
    char card_color[128];            /* a card's letter (either case) -> its colour */
    Word card_ranks[NR];
    int ncard_ranks;
    /* headers */
    char tags[MAXTAGS][TAGLEN];
    int tag_len[MAXTAGS];
    int ntags;
    char names[5][TAGLEN];           /* Colors, Hand1, Hand2, Deck, Result */
    int name_len[5];
    /* the rules */
    int hand_size;
    int copies[NR];
    int max_rank;
    int handshake;
    int draw_start[MAXC + 1];
    int color_counts[MAXC + 1];      /* 1 where a Colors header may name that many */
    PyObject *score_ranks;
    int *scores;                     /* by handshakes and the mask of numbers (bit r: rank r) */
    int score_h;                     /* handshakes + 1 */
} T;

enum { COLORS, HAND1, HAND2, DECK, RESULT };

/* ------------------------------------------------------------ configure */

static int word_of(PyObject *key, Word *w)
{
    Py_ssize_t n;
    const char *s;
    if (!PyUnicode_Check(key) || !PyUnicode_IS_ASCII(key)) {
        PyErr_SetString(PyExc_ValueError, "a spelling must be ASCII text");
        return -1;
    }
    s = PyUnicode_AsUTF8AndSize(key, &n);
    if (s == NULL)
        return -1;
    if (n < 1 || n > MAXWORD) {
        PyErr_SetString(PyExc_ValueError, "a rank spelling of 1 to 4 characters expected");
        return -1;
    }
    w->len = (int)n;
    memcpy(w->text, s, (size_t)n);
    return 0;
}

static int words_of(PyObject *dict, Word *words, int *count)
{
    PyObject *key, *value;
    Py_ssize_t i = 0;
    int n = 0;
    if (!PyDict_Check(dict)) {
        PyErr_SetString(PyExc_TypeError, "a dict of spellings expected");
        return -1;
    }
    while (PyDict_Next(dict, &i, &key, &value)) {
        long v;
        if (n >= NR) {
            PyErr_SetString(PyExc_ValueError, "too many rank spellings");
            return -1;
        }
        if (word_of(key, &words[n]) < 0)
            return -1;
        v = PyLong_AsLong(value);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < 0 || v >= NR) {
            PyErr_SetString(PyExc_ValueError, "a rank out of range");
            return -1;
        }
        words[n].value = (int)v;
        n++;
    }
    *count = n;
    return 0;
}

static int letters_of(PyObject *s, unsigned char *table)
{
    Py_ssize_t i, n;
    if (!PyUnicode_Check(s)) {
        PyErr_SetString(PyExc_TypeError, "letters: str expected");
        return -1;
    }
    n = PyUnicode_GET_LENGTH(s);
    memset(table, 0, 128);
    for (i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(s, i);
        if (c >= 128) {
            PyErr_SetString(PyExc_ValueError, "letters must be ASCII");
            return -1;
        }
        table[c] = 1;
    }
    return 0;
}

static int ints_of(PyObject *seq, int *out, int max, int *count)
{
    Py_ssize_t i, n;
    PyObject *fast = PySequence_Fast(seq, "a sequence of numbers expected");
    if (fast == NULL)
        return -1;
    n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many numbers");
        return -1;
    }
    for (i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < INT_MIN / 4 || v > INT_MAX / 4) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "a number out of range");
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    *count = (int)n;
    return 0;
}

static int tag_of(PyObject *s, char *out, int *len)
{
    Py_ssize_t n;
    const char *text;
    if (!PyUnicode_Check(s) || !PyUnicode_IS_ASCII(s)) {
        PyErr_SetString(PyExc_ValueError, "a tag must be ASCII text");
        return -1;
    }
    text = PyUnicode_AsUTF8AndSize(s, &n);
    if (text == NULL)
        return -1;
    if (n < 1 || n >= TAGLEN) {
        PyErr_SetString(PyExc_ValueError, "a tag too long");
        return -1;
    }
    memcpy(out, text, (size_t)n);
    *len = (int)n;
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *keywords[] = {"colors", "ranks", "discards", "minus", "piles", "card_colors",
                               "card_ranks", "tags", "names", "hand_size", "copies",
                               "handshake", "draw_start", "color_counts", "score_ranks", NULL};
    PyObject *colors, *ranks, *discards, *minus, *piles, *card_colors, *card_ranks, *tags,
        *names, *copies, *draw_start, *color_counts, *score_ranks;
    int hand_size, handshake, n, i, counts[MAXC + 1], max_copies_h;
    Py_ssize_t pos = 0;
    PyObject *key, *value;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOUOOOOOiOiOOO", keywords, &colors, &ranks,
                                     &discards, &minus, &piles, &card_colors, &card_ranks,
                                     &tags, &names, &hand_size, &copies, &handshake,
                                     &draw_start, &color_counts, &score_ranks))
        return NULL;
    T.ready = 0;
    if (letters_of(colors, T.move_color) < 0 || letters_of(discards, T.discard) < 0
        || letters_of(piles, T.pile) < 0)
        return NULL;
    if (PyUnicode_GET_LENGTH(minus) != 1) {
        PyErr_SetString(PyExc_ValueError, "minus: one character expected");
        return NULL;
    }
    T.minus = PyUnicode_READ_CHAR(minus, 0);
    if (words_of(ranks, T.ranks, &T.nranks) < 0 || words_of(card_ranks, T.card_ranks,
                                                           &T.ncard_ranks) < 0)
        return NULL;
    if (!PyDict_Check(card_colors)) {
        PyErr_SetString(PyExc_TypeError, "card_colors: a dict expected");
        return NULL;
    }
    memset(T.card_color, 0, sizeof T.card_color);
    while (PyDict_Next(card_colors, &pos, &key, &value)) {
        Py_UCS4 k, v;
        if (!PyUnicode_Check(key) || !PyUnicode_Check(value) || PyUnicode_GET_LENGTH(key) != 1
            || PyUnicode_GET_LENGTH(value) != 1) {
            PyErr_SetString(PyExc_ValueError, "card_colors: letters expected");
            return NULL;
        }
        k = PyUnicode_READ_CHAR(key, 0);
        v = PyUnicode_READ_CHAR(value, 0);
        if (k >= 128 || v >= 128 || !T.move_color[v]) {
            PyErr_SetString(PyExc_ValueError, "card_colors: colour letters expected");
            return NULL;
        }
        T.card_color[k] = (char)v;
    }
    {
        PyObject *fast = PySequence_Fast(tags, "tags: a sequence expected");
        if (fast == NULL)
            return NULL;
        n = (int)PySequence_Fast_GET_SIZE(fast);
        if (n > MAXTAGS) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "too many known tags");
            return NULL;
        }
        for (i = 0; i < n; i++)
            if (tag_of(PySequence_Fast_GET_ITEM(fast, i), T.tags[i], &T.tag_len[i]) < 0) {
                Py_DECREF(fast);
                return NULL;
            }
        T.ntags = n;
        Py_DECREF(fast);
        fast = PySequence_Fast(names, "names: a sequence expected");
        if (fast == NULL)
            return NULL;
        if (PySequence_Fast_GET_SIZE(fast) != 5) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "names: Colors, Hand1, Hand2, Deck, Result");
            return NULL;
        }
        for (i = 0; i < 5; i++)
            if (tag_of(PySequence_Fast_GET_ITEM(fast, i), T.names[i], &T.name_len[i]) < 0) {
                Py_DECREF(fast);
                return NULL;
            }
        Py_DECREF(fast);
    }
    if (hand_size < 0 || hand_size > MAXDECK / 2) {
        PyErr_SetString(PyExc_ValueError, "hand_size out of range");
        return NULL;
    }
    T.hand_size = hand_size;
    memset(T.copies, 0, sizeof T.copies);
    if (ints_of(copies, T.copies, NR, &n) < 0)
        return NULL;
    T.max_rank = n - 1;
    {
        int per_color = 0;
        for (i = 0; i < n; i++) {
            if (T.copies[i] < 0) {
                PyErr_SetString(PyExc_ValueError, "copies out of range");
                return NULL;
            }
            per_color += T.copies[i];
        }
        if (per_color > PILEMAX || per_color * MAXC > MAXDECK) {
            PyErr_SetString(PyExc_ValueError, "too many cards of a colour");
            return NULL;
        }
    }
    if (handshake < 0 || handshake > T.max_rank) {
        PyErr_SetString(PyExc_ValueError, "handshake out of range");
        return NULL;
    }
    T.handshake = handshake;
    for (i = 0; i < T.nranks; i++)
        if (T.ranks[i].value > T.max_rank) {
            PyErr_SetString(PyExc_ValueError, "a rank without copies");
            return NULL;
        }
    for (i = 0; i < T.ncard_ranks; i++)
        if (T.card_ranks[i].value > T.max_rank) {
            PyErr_SetString(PyExc_ValueError, "a card rank without copies");
            return NULL;
        }
    if (ints_of(draw_start, T.draw_start, MAXC + 1, &n) < 0)
        return NULL;
    if (n != MAXC + 1) {
        PyErr_SetString(PyExc_ValueError, "draw_start: one size for 0 to 26 colours");
        return NULL;
    }
    if (ints_of(color_counts, counts, MAXC + 1, &n) < 0)
        return NULL;
    memset(T.color_counts, 0, sizeof T.color_counts);
    for (i = 0; i < n; i++)
        if (counts[i] >= 1 && counts[i] <= MAXC)
            T.color_counts[counts[i]] = 1;
    if (!PyCallable_Check(score_ranks)) {
        PyErr_SetString(PyExc_TypeError, "score_ranks must be callable");
        return NULL;
    }
    Py_INCREF(score_ranks);
    Py_XSETREF(T.score_ranks, score_ranks);
    max_copies_h = T.copies[T.handshake];
    PyMem_Free(T.scores);
    T.score_h = max_copies_h + 1;
    T.scores = PyMem_Malloc(sizeof(int) * (size_t)T.score_h << (T.max_rank + 1));
    if (T.scores == NULL)
        return PyErr_NoMemory();
    for (i = 0; i < T.score_h << (T.max_rank + 1); i++)
        T.scores[i] = INT_MIN;
    T.ready = 1;
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------ checking */

typedef struct {
    Py_ssize_t name, name_end, value, value_end;
} Hdr;

#define CH(i) PyUnicode_READ(kind, data, (i))
#define LOOK_CLOSER() do { goto closer; } while (0)

/* The score of an expedition of h handshakes and the numbers of mask (bit r
 * for rank r), by score_ranks (asked once for each): INT_MIN on an error. */
static int score_of(int h, unsigned mask)
{
    int *slot = &T.scores[(h << (T.max_rank + 1)) + (int)mask];
    if (*slot == INT_MIN) {
        PyObject *list = PyList_New(0), *result;
        long v;
        int r, i;
        if (list == NULL)
            return INT_MIN;
        for (i = 0; i < h; i++) {
            PyObject *x = PyLong_FromLong(T.handshake);
            if (x == NULL || PyList_Append(list, x) < 0) {
                Py_XDECREF(x);
                Py_DECREF(list);
                return INT_MIN;
            }
            Py_DECREF(x);
        }
        for (r = 0; r < NR; r++)
            if (mask & (1u << r)) {
                PyObject *x = PyLong_FromLong(r);
                if (x == NULL || PyList_Append(list, x) < 0) {
                    Py_XDECREF(x);
                    Py_DECREF(list);
                    return INT_MIN;
                }
                Py_DECREF(x);
            }
        result = PyObject_CallOneArg(T.score_ranks, list);
        Py_DECREF(list);
        if (result == NULL)
            return INT_MIN;
        v = PyLong_AsLong(result);
        Py_DECREF(result);
        if (v == -1 && PyErr_Occurred())
            return INT_MIN;
        if (v <= INT_MIN / 4 || v >= INT_MAX / 4) {
            PyErr_SetString(PyExc_ValueError, "a score out of range");
            return INT_MIN;
        }
        *slot = (int)v;
    }
    return *slot;
}

/* Whether text[at:end] is the ASCII string s of length n. */
static int same(int kind, const void *data, Py_ssize_t at, Py_ssize_t end, const char *s,
                int n)
{
    int i;
    if (end - at != n)
        return 0;
    for (i = 0; i < n; i++)
        if (CH(at + i) != (Py_UCS4)(unsigned char)s[i])
            return 0;
    return 1;
}

static int lower_ascii(Py_UCS4 c)
{
    return (c >= 'A' && c <= 'Z') ? (int)(c + 32) : (int)c;
}

/* Whether text[at:end] equals s of length n when letter case is ignored. */
static int same_ignoring_case(int kind, const void *data, Py_ssize_t at, Py_ssize_t end,
                              const char *s, int n)
{
    int i;
    if (end - at != n)
        return 0;
    for (i = 0; i < n; i++)
        if (lower_ascii(CH(at + i)) != lower_ascii((Py_UCS4)(unsigned char)s[i]))
            return 0;
    return 1;
}

static int is_space(Py_UCS4 c)
{
    return c == ' ' || c == '\t' || c == '\n';
}

/* A card of a deal header, text[at:end]: its colour letter and rank, or 0. */
static int card_of(int kind, const void *data, Py_ssize_t at, Py_ssize_t end, char *color,
                   int *rank)
{
    Py_UCS4 c;
    int i;
    if (end - at < 2)
        return 0;
    c = CH(at);
    if (c >= 128 || !T.card_color[c])
        return 0;
    for (i = 0; i < T.ncard_ranks; i++) {
        const Word *w = &T.card_ranks[i];
        if (same(kind, data, at + 1, end, w->text, w->len)) {
            *color = T.card_color[c];
            *rank = w->value;
            return 1;
        }
    }
    return 0;
}

typedef struct {
    int n;
    signed char cidx[128];           /* colour letter -> index in the game, or -1 */
    unsigned char held[2][MAXC][NR];
    unsigned char pool[MAXC][NR];
    int unknown[2];
    unsigned char deck_c[MAXDECK], deck_r[MAXDECK];
    int deck_size, deck_top, have_deck;
    signed char last[2][MAXC];       /* the last rank of each expedition, or -1 */
    unsigned char hs[2][MAXC];
    unsigned mask[2][MAXC];
    unsigned char pile[MAXC][PILEMAX];
    int pile_n[MAXC];
    int high, turn;
} State;

/* The cards of a deal header's value text[at:end], single spaces between
 * them, into the deck arrays from *size on; 0 when it cannot be read here. */
static int deal_of(int kind, const void *data, Py_ssize_t at, Py_ssize_t end, State *s,
                   int *counts)
{
    Py_ssize_t start = at, i;
    for (i = at; i <= end; i++) {
        if (i == end || CH(i) == ' ') {
            char color;
            int rank, ci;
            if (!card_of(kind, data, start, i, &color, &rank))
                return 0;
            ci = s->cidx[(unsigned char)color];
            if (ci < 0 || s->deck_size >= MAXDECK)
                return 0;  /* a card outside the game's colours */
            s->deck_c[s->deck_size] = (unsigned char)ci;
            s->deck_r[s->deck_size] = (unsigned char)rank;
            s->deck_size++;
            counts[ci * NR + rank]++;
            start = i + 1;
        }
    }
    return 1;
}

static PyObject *check(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *text, *defaults;
    int kind;
    const void *data;
    Py_ssize_t n, pos = 0, i;
    Hdr h[MAXH];
    int nh = 0, at_line_start = 1, which[5], j, nsteps = 0, pending = 0, discarded = 0;
    State st;
    State *s = &st;
    int total[2];

    if (nargs != 2 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "check(text, default_colors)");
        return NULL;
    }
    if (!T.ready) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups.configure() was not called");
        return NULL;
    }
    text = args[0];
    defaults = args[1];
    kind = PyUnicode_KIND(text);
    data = PyUnicode_DATA(text);
    n = PyUnicode_GET_LENGTH(text);

    /* The header lines. */
    for (;;) {
        Py_UCS4 c;
        while (pos < n) {
            c = CH(pos);
            if (c == '\n')
                at_line_start = 1;
            else if (c != ' ' && c != '\t')
                break;
            pos++;
        }
        if (pos >= n || CH(pos) != '[')
            break;
        if (!at_line_start || nh >= MAXH)
            LOOK_CLOSER();  /* two headers on a line (N109); many headers */
        i = pos + 1;
        while (i < n && (CH(i) == ' ' || CH(i) == '\t'))
            i++;
        h[nh].name = i;
        if (i >= n || !((CH(i) >= 'A' && CH(i) <= 'Z') || (CH(i) >= 'a' && CH(i) <= 'z')))
            LOOK_CLOSER();
        while (i < n && ((CH(i) >= 'A' && CH(i) <= 'Z') || (CH(i) >= 'a' && CH(i) <= 'z')
                         || (CH(i) >= '0' && CH(i) <= '9') || CH(i) == '_'))
            i++;
        h[nh].name_end = i;
        if (i >= n || (CH(i) != ' ' && CH(i) != '\t'))
            LOOK_CLOSER();
        while (i < n && (CH(i) == ' ' || CH(i) == '\t'))
            i++;
        if (i >= n || CH(i) != '"')
            LOOK_CLOSER();
        h[nh].value = ++i;
        for (; i < n; i++) {
            c = CH(i);
            if (c == '"')
                break;
            /* No escapes, no control characters, no white space but blanks
             * (the line breaks of str.splitlines among them): the Python
             * way reads those. */
            if (c == '\\' || (c < 0x20 && c != '\t') || (c >= 0x7f && c < 0xa0)
                || (c >= 0xd800 && c < 0xe000) || c == 0xfeff
                || (c > ' ' && Py_UNICODE_ISSPACE(c)))
                LOOK_CLOSER();
        }
        if (i >= n)
            LOOK_CLOSER();
        h[nh].value_end = i++;
        while (i < n && (CH(i) == ' ' || CH(i) == '\t'))
            i++;
        if (i >= n || CH(i) != ']')
            LOOK_CLOSER();
        pos = i + 1;
        nh++;
        at_line_start = 0;
    }

    /* The tags: none twice, none a known tag in another case (S106, S105);
     * the headers that matter here. */
    for (j = 0; j < 5; j++)
        which[j] = -1;
    for (i = 0; i < nh; i++) {
        Py_ssize_t a = h[i].name, b = h[i].name_end;
        int known = 0, k;
        for (j = 0; j < i; j++) {
            Py_ssize_t a2 = h[j].name, len = b - a, m;
            if (h[j].name_end - a2 != len)
                continue;
            for (m = 0; m < len && CH(a + m) == CH(a2 + m); m++)
                ;
            if (m == len)
                LOOK_CLOSER();
        }
        for (k = 0; k < T.ntags; k++)
            if (same(kind, data, a, b, T.tags[k], T.tag_len[k])) {
                known = 1;
                break;
            }
        if (!known)
            for (k = 0; k < T.ntags; k++)
                if (same_ignoring_case(kind, data, a, b, T.tags[k], T.tag_len[k]))
                    LOOK_CLOSER();
        for (k = 0; k < 5; k++)
            if (same(kind, data, a, b, T.names[k], T.name_len[k]))
                which[k] = (int)i;
    }

    /* The colours. */
    memset(s->cidx, -1, sizeof s->cidx);
    if (which[COLORS] >= 0) {
        Py_ssize_t a = h[which[COLORS]].value, b = h[which[COLORS]].value_end;
        s->n = (int)(b - a);
        if (s->n < 1 || s->n > MAXC || !T.color_counts[s->n])
            LOOK_CLOSER();
        for (i = a; i < b; i++) {
            Py_UCS4 c = CH(i);
            if (c >= 128 || !T.move_color[c] || s->cidx[c] >= 0)
                LOOK_CLOSER();
            s->cidx[c] = (signed char)(i - a);
        }
    } else {
        Py_ssize_t size;
        if (!PyTuple_Check(defaults))
            LOOK_CLOSER();
        size = PyTuple_GET_SIZE(defaults);
        if (size < 1 || size > MAXC)
            LOOK_CLOSER();
        s->n = (int)size;
        for (i = 0; i < size; i++) {
            PyObject *item = PyTuple_GET_ITEM(defaults, i);
            Py_UCS4 c;
            if (!PyUnicode_Check(item) || PyUnicode_GET_LENGTH(item) != 1)
                LOOK_CLOSER();
            c = PyUnicode_READ_CHAR(item, 0);
            if (c >= 128 || !T.move_color[c] || s->cidx[c] >= 0)
                LOOK_CLOSER();
            s->cidx[c] = (signed char)i;
        }
    }

    /* The state after the deal: a whole deal, sound, or none at all. */
    memset(s->held, 0, sizeof s->held);
    memset(s->last, -1, sizeof s->last);
    memset(s->hs, 0, sizeof s->hs);
    memset(s->mask, 0, sizeof s->mask);
    memset(s->pile_n, 0, sizeof s->pile_n);
    s->deck_size = s->deck_top = 0;
    s->turn = 0;
    s->high = T.draw_start[s->n];
    if (which[HAND1] >= 0 || which[HAND2] >= 0 || which[DECK] >= 0) {
        int counts[MAXC * NR], ci, r, p, k;
        if (which[HAND1] < 0 || which[HAND2] < 0 || which[DECK] < 0)
            LOOK_CLOSER();
        memset(counts, 0, sizeof counts);
        for (k = HAND1; k <= DECK; k++) {
            int before = s->deck_size;
            if (!deal_of(kind, data, h[which[k]].value, h[which[k]].value_end, s, counts))
                LOOK_CLOSER();
            if (k != DECK && s->deck_size - before != T.hand_size)
                LOOK_CLOSER();
        }
        for (ci = 0; ci < s->n; ci++)
            for (r = 0; r < NR; r++)
                if (counts[ci * NR + r] != (r <= T.max_rank ? T.copies[r] : 0))
                    LOOK_CLOSER();
        memset(s->pool, 0, sizeof s->pool);
        for (p = 0; p < 2; p++)
            for (k = 0; k < T.hand_size; k++)
                s->held[p][s->deck_c[p * T.hand_size + k]][s->deck_r[p * T.hand_size + k]]++;
        s->deck_top = 2 * T.hand_size;
        s->unknown[0] = s->unknown[1] = 0;
        s->have_deck = 1;
    } else {
        int ci, r;
        for (ci = 0; ci < s->n; ci++)
            for (r = 0; r < NR; r++)
                s->pool[ci][r] = (unsigned char)(r <= T.max_rank ? T.copies[r] : 0);
        s->unknown[0] = s->unknown[1] = T.hand_size;
        s->have_deck = 0;
    }

    /* The moves, replayed as they are read. */
    for (;;) {
        Py_ssize_t start, end;
        Py_UCS4 c;
        while (pos < n) {
            c = CH(pos);
            if (c == '\n') {
                if (pending)
                    LOOK_CLOSER();  /* a move number alone on its line */
            } else if (c != ' ' && c != '\t')
                break;
            pos++;
        }
        if (pos >= n)
            break;
        start = pos;
        while (pos < n && !is_space(CH(pos))) {
            c = CH(pos);
            if (c <= ' ' || c >= 0x7f)
                LOOK_CLOSER();  /* other white space, control or non-ASCII characters */
            pos++;
        }
        end = pos;
        c = CH(start);
        if (c >= '0' && c <= '9') {
            /* A move number: digits and a dot, no leading zero, its turn's. */
            long value = 0;
            if (c == '0' || end - start > 5 || CH(end - 1) != '.')
                LOOK_CLOSER();
            for (i = start; i < end - 1; i++) {
                c = CH(i);
                if (c < '0' || c > '9')
                    LOOK_CLOSER();
                value = value * 10 + (long)(c - '0');
            }
            if (pending || value != nsteps + 1)
                LOOK_CLOSER();
            pending = 1;
            continue;
        } else {
            /* A move: colour, rank, discard marker or none, hyphen, draw. */
            int ci, r = -1, discard = 0, k, src;
            Py_UCS4 draw;
            if (!T.move_color[c])
                LOOK_CLOSER();
            for (k = 0; k < T.nranks; k++) {
                const Word *w = &T.ranks[k];
                Py_ssize_t after = start + 1 + w->len, m;
                for (m = 0; m < w->len && start + 1 + m < end
                            && CH(start + 1 + m) == (Py_UCS4)(unsigned char)w->text[m]; m++)
                    ;
                if (m < w->len)
                    continue;
                if (end - after == 3 && CH(after) < 128 && T.discard[CH(after)]
                    && CH(after + 1) == T.minus) {
                    discard = 1;
                } else if (end - after == 2 && CH(after) == T.minus) {
                    discard = 0;
                } else {
                    continue;
                }
                draw = CH(end - 1);
                if (draw >= 128 || !(T.move_color[draw] || T.pile[draw]))
                    continue;
                r = w->value;
                break;
            }
            if (r < 0)
                LOOK_CLOSER();
            draw = CH(end - 1);
            pending = 0;
            nsteps++;
            /* GameState.play_quietly's step. */
            {
                int p = s->turn & 1;
                if (!s->high)
                    LOOK_CLOSER();  /* a move after the end (R109) */
                ci = s->cidx[c];
                if (ci < 0)
                    LOOK_CLOSER();  /* a colour outside the game (R106, S104) */
                if (!discard && s->last[p][ci] >= 0) {
                    int last = s->last[p][ci];
                    if (r ? r <= last : last != T.handshake)
                        LOOK_CLOSER();  /* R101, R102 */
                }
                if (s->held[p][ci][r])
                    s->held[p][ci][r]--;
                else if (s->unknown[p] && s->pool[ci][r]) {
                    s->pool[ci][r]--;
                    s->unknown[p]--;
                } else
                    LOOK_CLOSER();  /* R103 to R105 */
                if (discard) {
                    if (s->pile_n[ci] >= PILEMAX)
                        LOOK_CLOSER();
                    s->pile[ci][s->pile_n[ci]++] = (unsigned char)r;
                    discarded = 1;
                } else {
                    s->last[p][ci] = (signed char)r;
                    if (r == T.handshake)
                        s->hs[p][ci]++;
                    else
                        s->mask[p][ci] |= 1u << r;
                }
                if (T.pile[draw] && !T.move_color[draw]) {
                    if (s->have_deck) {
                        if (s->deck_top >= s->deck_size)
                            LOOK_CLOSER();
                        s->held[p][s->deck_c[s->deck_top]][s->deck_r[s->deck_top]]++;
                        s->deck_top++;
                    } else
                        s->unknown[p]++;
                    s->high--;
                } else {
                    src = s->cidx[draw];
                    if (src < 0 || (src == ci && discard) || !s->pile_n[src])
                        LOOK_CLOSER();  /* R106 to R108 */
                    s->held[p][src][s->pile[src][--s->pile_n[src]]]++;
                }
                s->turn++;
            }
        }
    }
    if (pending || s->high)
        LOOK_CLOSER();  /* a number without its move; the round is incomplete (R110) */

    /* The scores, and the Result header against them (R204, N122). */
    for (j = 0; j < 2; j++) {
        int ci;
        total[j] = 0;
        for (ci = 0; ci < s->n; ci++) {
            int v;
            if (s->hs[j][ci] >= T.score_h)
                LOOK_CLOSER();
            v = score_of(s->hs[j][ci], s->mask[j][ci]);
            if (v == INT_MIN)
                return NULL;
            total[j] += v;
        }
    }
    if (which[RESULT] >= 0) {
        Py_ssize_t a = h[which[RESULT]].value, b = h[which[RESULT]].value_end;
        if (!(b - a == 1 && CH(a) == '*')) {
            long claimed[2];
            for (j = 0; j < 2; j++) {
                int negative = 0, digits = 0;
                long v = 0;
                if (a < b && CH(a) == '-') {
                    negative = 1;
                    a++;
                }
                while (a < b && CH(a) >= '0' && CH(a) <= '9') {
                    if (digits == 0 && CH(a) == '0' && a + 1 < b && CH(a + 1) >= '0'
                        && CH(a + 1) <= '9')
                        LOOK_CLOSER();  /* a leading zero */
                    v = v * 10 + (long)(CH(a) - '0');
                    a++;
                    if (++digits > 7)
                        LOOK_CLOSER();
                }
                if (!digits || (negative && v == 0))
                    LOOK_CLOSER();
                claimed[j] = negative ? -v : v;
                if (j == 0) {
                    if (a >= b || CH(a) != '-')
                        LOOK_CLOSER();
                    a++;
                }
            }
            if (a != b || claimed[0] != total[0] || claimed[1] != total[1])
                LOOK_CLOSER();
        }
    }
    return Py_BuildValue("(nOii)", (Py_ssize_t)nsteps, discarded ? Py_True : Py_False,
                         total[0], total[1]);
closer:
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     "configure(**tables): the lexical and rules tables, from Python (lostcities/accel.py)."},
    {"check", (PyCFunction)(void (*)(void))check, METH_FASTCALL,
     "check(text, default_colors): (moves, discarded, total1, total2) for a clean game, "
     "else None (look closer)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups",
                                    "The compiled accelerator of lint's fused path.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
