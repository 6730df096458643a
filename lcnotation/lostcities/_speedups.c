/* The compiled accelerator of lint's fused path (issue 25 item 1).
 *
 * Two questions, each answered "clean" or "look closer":
 *
 * check(text, default_colors) looks at the text of one game and answers
 * either (moves, discarded, total1, total2) -- the game is clean: linting
 * it finds nothing, it has this many moves, some of them discard (for the
 * file's first discard marker), and these are the final scores -- or None:
 * "look closer", and the game goes the Python way (lcnotation/lostcities/
 * fused.py, then the tree path), which says what is wrong.
 *
 * scan(data, start, final, default_colors, judge) reads the bytes of a file
 * (whole lines, from a game's start) game by game, as the reader would
 * decode and split them, and checks each game as check() does, until the
 * first game it does not call clean: it answers how far the clean games
 * go, how many games and moves they hold, whether one discards, and how many
 * line ends and characters (as the reader counts them) they take; and where
 * the game it stopped at ends, so that Python reads that one game.  The
 * file's clean games are then checked without Python touching their lines.
 *
 * "Clean" is the only answer either gives, so neither can change a report;
 * they accept a subset of what fused.clean_moves accepts, and at the least
 * doubt they say "look closer".  tests/test_speedups.py holds them to the
 * Python path.
 *
 * The lexical and rules tables (colour letters, rank spellings, the card
 * words of the deal headers, the known tags, copies of each card, the hand
 * size, the draw pile after the deal, the scores of an expedition, the
 * blanks that may stand before a header line's "[") are not written here:
 * configure() receives them from Python (lostcities/accel.py), which takes
 * them from the modules that own them.  What is written here is the shape
 * of what is read, a strict subset of the grammar's:
 *
 *   - white space is ' ', '\t' and a line end ('\n'; in scan, "\r\n" too);
 *   - header lines first: '[' NAME blanks '"' value '"' blanks ']', each at
 *     the start of its line, the value without '\\' or line breaks (UTF-8);
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
#include <stdint.h>
#include <string.h>

#define MAXC 26        /* colours a game may have here */
#define NR 16          /* rank values 0 .. NR-1 */
#define MAXH 32        /* headers of a game on this way */
#define MAXDECK 512    /* cards of a deal */
#define PILEMAX 64     /* cards of one colour */
#define MAXWORD 4      /* characters of a rank spelling */
#define MAXTAGS 64
#define TAGLEN 32
#define MAXBLANKS 8    /* blanks before a header line's "[" that are not ASCII */

typedef struct {
    int len;
    unsigned key;                    /* its bytes, packed: text[i] << 8 * i */
    int value;
} Word;

/* Spellings (of ranks), and those of one and two characters by their text. */
typedef struct {
    Word word[NR];
    int count;
    signed char one[128];            /* the index of a spelling of one character, or -1 */
    signed char two[128 * 128];      /* of two characters (first * 128 + second), or -1 */
} Words;

static struct {
    int ready;
    /* moves */
    unsigned char move_color[128];   /* a colour letter of a move (plain: upper case) */
    Words ranks;
    unsigned char discard[128];      /* a plain discard marker */
    unsigned char pile[128];         /* a plain letter of the draw pile */
    unsigned char minus;
    /* deal headers */
    char card_color[128];            /* a card's letter (either case) -> its colour */
    Words card_ranks;
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
    /* the file */
    Py_ssize_t max_game;             /* the longest game the reader reads, in characters */
    unsigned char line_blank[128];   /* an ASCII blank that may stand before a header's "[" */
    char wide_blank[MAXBLANKS][4];   /* the others, in UTF-8 */
    int wide_len[MAXBLANKS];
    int nwide;
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
    w->key = 0;
    while (n--)
        w->key |= (unsigned)(unsigned char)s[n] << (8 * n);
    return 0;
}

static int words_of(PyObject *dict, Words *out)
{
    PyObject *key, *value;
    Py_ssize_t i = 0;
    int n = 0;
    Word *words = out->word;
    memset(out->one, -1, sizeof out->one);
    memset(out->two, -1, sizeof out->two);
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
        if (words[n].len == 1)
            out->one[words[n].key] = (signed char)n;
        else if (words[n].len == 2)
            out->two[(words[n].key & 0xff) * 128 + (words[n].key >> 8)] = (signed char)n;
        n++;
    }
    out->count = n;
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

/* The blanks that may stand before the "[" of a header line: ASCII ones in
 * a table, the others (such as U+FEFF) as their UTF-8 bytes. */
static int blanks_of(PyObject *s)
{
    Py_ssize_t i, n = PyUnicode_GET_LENGTH(s);
    memset(T.line_blank, 0, sizeof T.line_blank);
    T.nwide = 0;
    for (i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ_CHAR(s, i);
        PyObject *one;
        const char *utf8;
        Py_ssize_t len;
        if (c < 128) {
            if (c == '\n' || c == '\r' || c == '[') {
                PyErr_SetString(PyExc_ValueError, "line_blanks: a line end or '[' is no blank");
                return -1;
            }
            T.line_blank[c] = 1;
            continue;
        }
        if (T.nwide >= MAXBLANKS) {
            PyErr_SetString(PyExc_ValueError, "line_blanks: too many");
            return -1;
        }
        one = PyUnicode_Substring(s, i, i + 1);
        if (one == NULL)
            return -1;
        utf8 = PyUnicode_AsUTF8AndSize(one, &len);
        if (utf8 == NULL || len > 4) {
            Py_DECREF(one);
            if (utf8 != NULL)
                PyErr_SetString(PyExc_ValueError, "line_blanks: a character of 4 bytes at most");
            return -1;
        }
        memcpy(T.wide_blank[T.nwide], utf8, (size_t)len);
        T.wide_len[T.nwide++] = (int)len;
        Py_DECREF(one);
    }
    if (!T.line_blank[' '] || !T.line_blank['\t']) {
        /* The check ends a game at a line of ' ' and '\t', then "[". */
        PyErr_SetString(PyExc_ValueError, "line_blanks: ' ' and '\\t' expected among them");
        return -1;
    }
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *keywords[] = {"colors", "ranks", "discards", "minus", "piles", "card_colors",
                               "card_ranks", "tags", "names", "hand_size", "copies",
                               "handshake", "draw_start", "color_counts", "score_ranks",
                               "max_game", "line_blanks", NULL};
    PyObject *colors, *ranks, *discards, *minus, *piles, *card_colors, *card_ranks, *tags,
        *names, *copies, *draw_start, *color_counts, *score_ranks, *line_blanks;
    int hand_size, handshake, n, i, counts[MAXC + 1], max_copies_h;
    Py_ssize_t pos = 0, max_game;
    PyObject *key, *value;

    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOOUOOOOOiOiOOOnU", keywords, &colors, &ranks,
                                     &discards, &minus, &piles, &card_colors, &card_ranks,
                                     &tags, &names, &hand_size, &copies, &handshake,
                                     &draw_start, &color_counts, &score_ranks, &max_game,
                                     &line_blanks))
        return NULL;
    T.ready = 0;
    if (max_game < 0) {
        PyErr_SetString(PyExc_ValueError, "max_game out of range");
        return NULL;
    }
    T.max_game = max_game;
    if (blanks_of(line_blanks) < 0)
        return NULL;
    if (letters_of(colors, T.move_color) < 0 || letters_of(discards, T.discard) < 0
        || letters_of(piles, T.pile) < 0)
        return NULL;
    if (PyUnicode_GET_LENGTH(minus) != 1 || PyUnicode_READ_CHAR(minus, 0) >= 128) {
        PyErr_SetString(PyExc_ValueError, "minus: one ASCII character expected");
        return NULL;
    }
    T.minus = (unsigned char)PyUnicode_READ_CHAR(minus, 0);
    if (words_of(ranks, &T.ranks) < 0 || words_of(card_ranks, &T.card_ranks) < 0)
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
    for (i = 0; i < T.ranks.count; i++)
        if (T.ranks.word[i].value > T.max_rank) {
            PyErr_SetString(PyExc_ValueError, "a rank without copies");
            return NULL;
        }
    for (i = 0; i < T.card_ranks.count; i++)
        if (T.card_ranks.word[i].value > T.max_rank) {
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

/* ------------------------------------------------------------ reading bytes */

/* The length of the UTF-8 character at s[0] (n bytes left) and its code
 * point, or 0 when Python's decoder would not take the bytes there. */
static int utf8_at(const unsigned char *s, Py_ssize_t n, Py_UCS4 *cp)
{
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c < 0xc2)
        return 0;  /* a continuation byte, or an overlong lead */
    if (c < 0xe0) {
        if (n < 2 || (s[1] & 0xc0) != 0x80)
            return 0;
        *cp = ((Py_UCS4)(c & 0x1f) << 6) | (s[1] & 0x3f);
        return 2;
    }
    if (c < 0xf0) {
        if (n < 3 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80
            || (c == 0xe0 && s[1] < 0xa0)      /* overlong */
            || (c == 0xed && s[1] >= 0xa0))    /* a surrogate */
            return 0;
        *cp = ((Py_UCS4)(c & 0x0f) << 12) | ((Py_UCS4)(s[1] & 0x3f) << 6) | (s[2] & 0x3f);
        return 3;
    }
    if (c < 0xf5) {
        if (n < 4 || (s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80
            || (c == 0xf0 && s[1] < 0x90)      /* overlong */
            || (c == 0xf4 && s[1] >= 0x90))    /* past U+10FFFF */
            return 0;
        *cp = ((Py_UCS4)(c & 0x07) << 18) | ((Py_UCS4)(s[1] & 0x3f) << 12)
              | ((Py_UCS4)(s[2] & 0x3f) << 6) | (s[3] & 0x3f);
        return 4;
    }
    return 0;
}

static int is_letter(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int is_name_char(unsigned char c)
{
    return is_letter(c) || (c >= '0' && c <= '9') || c == '_';
}

static int lower_ascii(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

/* Whether s[at:end] is the ASCII string w of length n. */
static int same(const unsigned char *s, Py_ssize_t at, Py_ssize_t end, const char *w, int n)
{
    int i;
    if (end - at != n)
        return 0;
    for (i = 0; i < n; i++)
        if (s[at + i] != (unsigned char)w[i])
            return 0;
    return 1;
}

/* Whether s[at:end] equals w of length n when letter case is ignored. */
static int same_ignoring_case(const unsigned char *s, Py_ssize_t at, Py_ssize_t end,
                              const char *w, int n)
{
    int i;
    if (end - at != n)
        return 0;
    for (i = 0; i < n; i++)
        if (lower_ascii(s[at + i]) != lower_ascii((unsigned char)w[i]))
            return 0;
    return 1;
}

/* The index in words of the spelling s[0:len], or -1. */
static int word_index(const Words *words, const unsigned char *s, Py_ssize_t len)
{
    unsigned key = 0;
    int i;
    if (len == 1)
        return s[0] < 128 ? words->one[s[0]] : -1;
    if (len == 2)
        return s[0] < 128 && s[1] < 128 ? words->two[s[0] * 128 + s[1]] : -1;
    if (len < 1 || len > MAXWORD)
        return -1;
    for (i = 0; i < len; i++)
        key |= (unsigned)s[i] << (8 * i);
    for (i = 0; i < words->count; i++)
        if (words->word[i].key == key && words->word[i].len == len)
            return i;
    return -1;
}

/* ------------------------------------------------------------ checking a game */

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

/* The colours of a game without a Colors header (default_colors), read once. */
typedef struct {
    int ok;                          /* 0: a game without a Colors header looks closer */
    int n;
    signed char cidx[128];           /* colour letter -> index in the game, or -1 */
} Colours;

static void colours_of(PyObject *defaults, Colours *out)
{
    Py_ssize_t size, i;
    out->ok = 0;
    memset(out->cidx, -1, sizeof out->cidx);
    if (!PyTuple_Check(defaults))
        return;
    size = PyTuple_GET_SIZE(defaults);
    if (size < 1 || size > MAXC)
        return;
    for (i = 0; i < size; i++) {
        PyObject *item = PyTuple_GET_ITEM(defaults, i);
        Py_UCS4 c;
        if (!PyUnicode_Check(item) || PyUnicode_GET_LENGTH(item) != 1)
            return;
        c = PyUnicode_READ_CHAR(item, 0);
        if (c >= 128 || !T.move_color[c] || out->cidx[c] >= 0)
            return;
        out->cidx[c] = (signed char)i;
    }
    out->n = (int)size;
    out->ok = 1;
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

/* The cards of a deal header's value s[at:end], single spaces between
 * them, into the deck arrays from deck_size on; 0 when it cannot be read here. */
static int deal_of(const unsigned char *s, Py_ssize_t at, Py_ssize_t end, State *st,
                   int *counts)
{
    Py_ssize_t start = at, i;
    for (i = at; i <= end; i++) {
        if (i == end || s[i] == ' ') {
            int k, ci;
            /* A card: its colour letter (either case) and rank. */
            if (i - start < 2 || s[start] >= 128 || !T.card_color[s[start]])
                return 0;
            k = word_index(&T.card_ranks, s + start + 1, i - start - 1);
            ci = st->cidx[(unsigned char)T.card_color[s[start]]];
            if (k < 0 || ci < 0 || st->deck_size >= MAXDECK)
                return 0;  /* a card outside the game's colours */
            st->deck_c[st->deck_size] = (unsigned char)ci;
            st->deck_r[st->deck_size] = (unsigned char)T.card_ranks.word[k].value;
            st->deck_size++;
            counts[ci * NR + T.card_ranks.word[k].value]++;
            start = i + 1;
        }
    }
    return 1;
}

typedef struct {
    Py_ssize_t name, name_end, value, value_end;
} Hdr;

/* What check_game says of a clean game. */
typedef struct {
    Py_ssize_t moves;
    int discarded;
    int total[2];
    Py_ssize_t end;                  /* where it ends (the next game's start) */
    Py_ssize_t lines;                /* its line ends */
    Py_ssize_t wide;                 /* bytes that are not a character of their own: the
                                      * CR of each CRLF, the continuation bytes of UTF-8 */
} Verdict;

/* What check_game answers. */
enum { CLOSER = 0, CLEAN = 1, MORE = 2 };

/* The bytes of a header's value, as check_game reads them. */
enum { V_PLAIN, V_REFUSED, V_QUOTE, V_COLON, V_WIDE };
static unsigned char value_class[256];

static void classify_values(void)
{
    int c;
    for (c = 0; c < 256; c++)
        value_class[c] = c >= 0x80 ? V_WIDE : V_PLAIN;
    /* No escapes, no control characters, no white space but blanks (the
     * line breaks of str.splitlines among them): the Python way reads those. */
    for (c = 0; c < 0x20; c++)
        value_class[c] = V_REFUSED;
    value_class['\t'] = V_PLAIN;
    value_class[0x7f] = V_REFUSED;
    value_class['\\'] = V_REFUSED;
    value_class['"'] = V_QUOTE;
    value_class[':'] = V_COLON;
}

/* A header's value from s[i], up to its closing '"': where that '"' is, or
 * -1 when the value is not one read here (see value_class; a character
 * that is not ASCII may be any but C1 controls, U+FEFF and white space; no
 * "lcn:", a suppression's mark, which the Python way looks at).  Its
 * continuation bytes are added to *wide. */
static Py_ssize_t value_end(const unsigned char *s, Py_ssize_t i, Py_ssize_t n,
                            Py_ssize_t *wide)
{
    Py_ssize_t start = i;
    for (; i < n; i++) {
        Py_UCS4 cp;
        int len;
        switch (value_class[s[i]]) {
        case V_PLAIN:
            continue;
        case V_QUOTE:
            return i;
        case V_COLON:
            if (i - start >= 3 && s[i - 3] == 'l' && s[i - 2] == 'c' && s[i - 1] == 'n')
                return -1;
            continue;
        case V_WIDE:
            len = utf8_at(s + i, n - i, &cp);
            if (!len || cp < 0xa0 || cp == 0xfeff || Py_UNICODE_ISSPACE(cp))
                return -1;
            *wide += len - 1;
            i += len - 1;
            continue;
        default:
            return -1;
        }
    }
    return -1;
}

static Py_ssize_t skip_blanks(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i;
}

/* A header's value from s[i] as the grammar has it (any character but '"',
 * a backslash and line breaks; a backslash escapes '"' or itself): where its
 * closing '"' is, or -1. */
static Py_ssize_t grammar_value_end(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    for (; i < n && s[i] != '"'; i++) {
        if (s[i] == '\r' || s[i] == '\n')
            return -1;
        if (s[i] == '\\') {
            if (i + 1 >= n || (s[i + 1] != '"' && s[i + 1] != '\\'))
                return -1;
            i++;
        }
    }
    return i < n ? i : -1;
}

/* The grammar's header from s[i], before n: "[" NAME blanks '"' value '"'
 * blanks "]".  Where it ends (after its "]"), its name and value in *h; -1
 * where there is none.  With wide, the value must be one check_game reads
 * (value_end, which adds its continuation bytes to *wide); without, any the
 * grammar allows. */
static Py_ssize_t header_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, Hdr *h,
                            Py_ssize_t *wide)
{
    if (i >= n || s[i] != '[')
        return -1;
    i = skip_blanks(s, i + 1, n);
    h->name = i;
    if (i >= n || !is_letter(s[i]))
        return -1;
    while (i < n && is_name_char(s[i]))
        i++;
    h->name_end = i;
    if (i >= n || (s[i] != ' ' && s[i] != '\t'))
        return -1;
    i = skip_blanks(s, i, n);
    if (i >= n || s[i] != '"')
        return -1;
    h->value = ++i;
    i = wide != NULL ? value_end(s, i, n, wide) : grammar_value_end(s, i, n);
    if (i < 0)
        return -1;
    h->value_end = i;
    i = skip_blanks(s, i + 1, n);
    return i < n && s[i] == ']' ? i + 1 : -1;
}

/* The reading of a game's bytes: where it stands, and what it has counted. */
typedef struct {
    const unsigned char *s;
    Py_ssize_t n, pos;
    int crlf;                        /* "\r\n" reads as '\n' */
    int line_start;                  /* only ' ' and '\t' since the last line end */
    Py_ssize_t line_at;              /* where that line starts */
    Py_ssize_t lines, wide;
} Reading;

/* Skip white space (' ', '\t', line ends); 0 when a move number stands alone
 * on its line (pending) and a line end comes. */
static int skip_space(Reading *r, int pending)
{
    const unsigned char *s = r->s;
    Py_ssize_t pos = r->pos, n = r->n;
    while (pos < n) {
        unsigned char c = s[pos];
        if (c == ' ' || c == '\t') {
            pos++;
        } else if (c == '\n') {
            if (pending)
                return 0;
            r->lines++;
            r->line_start = 1;
            r->line_at = ++pos;
        } else if (c == '\r' && r->crlf && pos + 1 < n && s[pos + 1] == '\n') {
            r->wide++;
            pos++;
        } else
            break;
    }
    r->pos = pos;
    return 1;
}

/* The header lines at the start of a game, into h (*nh of them). 0: look
 * closer. */
static int headers_of(Reading *r, Hdr *h, int *nh)
{
    const unsigned char *s = r->s;
    Py_ssize_t end;
    *nh = 0;
    for (;;) {
        skip_space(r, 0);
        if (r->pos >= r->n || s[r->pos] != '[')
            return 1;
        if (!r->line_start || *nh >= MAXH)
            return 0;  /* two headers on a line (N109); many headers */
        end = header_at(s, r->pos, r->n, &h[*nh], &r->wide);
        if (end < 0)
            return 0;
        r->pos = end;
        r->line_start = 0;
        (*nh)++;
    }
}

/* The tags: none twice, none a known tag in another case (S106, S105);
 * which[] gets the headers whose values are read here. 0: look closer. */
static int tags_of(const unsigned char *s, const Hdr *h, int nh, int *which)
{
    int i, j, k;
    for (j = 0; j < 5; j++)
        which[j] = -1;
    for (i = 0; i < nh; i++) {
        Py_ssize_t a = h[i].name, b = h[i].name_end;
        int known = 0;
        for (j = 0; j < i; j++)
            if (same(s, h[j].name, h[j].name_end, (const char *)s + a, (int)(b - a)))
                return 0;
        for (k = 0; k < T.ntags; k++)
            if (same(s, a, b, T.tags[k], T.tag_len[k])) {
                known = 1;
                break;
            }
        if (!known)
            for (k = 0; k < T.ntags; k++)
                if (same_ignoring_case(s, a, b, T.tags[k], T.tag_len[k]))
                    return 0;
        for (k = 0; k < 5; k++)
            if (same(s, a, b, T.names[k], T.name_len[k]))
                which[k] = i;
    }
    return 1;
}

/* The game's colours: its Colors header's, or the defaults. 0: look closer. */
static int game_colours(const unsigned char *s, const Hdr *colors, const Colours *defaults,
                        State *st)
{
    Py_ssize_t i;
    if (colors == NULL) {
        if (!defaults->ok)
            return 0;
        st->n = defaults->n;
        memcpy(st->cidx, defaults->cidx, sizeof st->cidx);
        return 1;
    }
    memset(st->cidx, -1, sizeof st->cidx);
    st->n = (int)(colors->value_end - colors->value);
    if (st->n < 1 || st->n > MAXC || !T.color_counts[st->n])
        return 0;
    for (i = colors->value; i < colors->value_end; i++) {
        unsigned char c = s[i];
        if (c >= 128 || !T.move_color[c] || st->cidx[c] >= 0)
            return 0;
        st->cidx[c] = (signed char)(i - colors->value);
    }
    return 1;
}

/* The state after the deal: a whole deal, sound, or none at all. 0: look
 * closer. */
static int dealt(const unsigned char *s, const Hdr *h, const int *which, State *st)
{
    memset(st->held, 0, sizeof st->held);
    memset(st->last, -1, sizeof st->last);
    memset(st->hs, 0, sizeof st->hs);
    memset(st->mask, 0, sizeof st->mask);
    memset(st->pile_n, 0, sizeof st->pile_n);
    st->deck_size = st->deck_top = 0;
    st->turn = 0;
    st->high = T.draw_start[st->n];
    if (which[HAND1] >= 0 || which[HAND2] >= 0 || which[DECK] >= 0) {
        int counts[MAXC * NR], ci, r, p, k;
        if (which[HAND1] < 0 || which[HAND2] < 0 || which[DECK] < 0)
            return 0;
        memset(counts, 0, sizeof counts);
        for (k = HAND1; k <= DECK; k++) {
            int before = st->deck_size;
            if (!deal_of(s, h[which[k]].value, h[which[k]].value_end, st, counts))
                return 0;
            if (k != DECK && st->deck_size - before != T.hand_size)
                return 0;
        }
        for (ci = 0; ci < st->n; ci++)
            for (r = 0; r < NR; r++)
                if (counts[ci * NR + r] != (r <= T.max_rank ? T.copies[r] : 0))
                    return 0;
        memset(st->pool, 0, sizeof st->pool);
        for (p = 0; p < 2; p++)
            for (k = 0; k < T.hand_size; k++)
                st->held[p][st->deck_c[p * T.hand_size + k]][st->deck_r[p * T.hand_size + k]]++;
        st->deck_top = 2 * T.hand_size;
        st->unknown[0] = st->unknown[1] = 0;
        st->have_deck = 1;
    } else {
        int ci, r;
        for (ci = 0; ci < st->n; ci++)
            for (r = 0; r < NR; r++)
                st->pool[ci][r] = (unsigned char)(r <= T.max_rank ? T.copies[r] : 0);
        st->unknown[0] = st->unknown[1] = T.hand_size;
        st->have_deck = 0;
    }
    return 1;
}

/* A move's text s[start:end] (printable ASCII): its rank, whether it
 * discards and where it draws from.  0: not a move read here.  Between the
 * colour and the hyphen stands a rank, or a rank and a discard marker; where
 * both readings hold, the rank spelling listed first wins. */
static int move_of(const unsigned char *s, Py_ssize_t start, Py_ssize_t end, int *rank,
                   int *discard, unsigned char *draw)
{
    int whole, marked;
    Py_ssize_t body = start + 1, len = end - 2 - body;
    if (end - start < 4 || !T.move_color[s[start]] || s[end - 2] != T.minus
        || !(T.move_color[s[end - 1]] || T.pile[s[end - 1]]))
        return 0;
    whole = word_index(&T.ranks, s + body, len);
    marked = T.discard[s[end - 3]] ? word_index(&T.ranks, s + body, len - 1) : -1;
    if (marked >= 0 && (whole < 0 || marked < whole)) {
        *rank = T.ranks.word[marked].value;
        *discard = 1;
    } else if (whole >= 0) {
        *rank = T.ranks.word[whole].value;
        *discard = 0;
    } else
        return 0;
    *draw = s[end - 1];
    return 1;
}

/* GameState.play_quietly's step: player turn & 1 plays colour ci, rank r.
 * 0: look closer (a rule may be broken). */
static int step(State *st, int ci, int r, int discard, unsigned char draw)
{
    int p = st->turn & 1, src;
    if (!st->high)
        return 0;  /* a move after the end (R109) */
    if (ci < 0)
        return 0;  /* a colour outside the game (R106, S104) */
    if (!discard && st->last[p][ci] >= 0) {
        int last = st->last[p][ci];
        if (r ? r <= last : last != T.handshake)
            return 0;  /* R101, R102 */
    }
    if (st->held[p][ci][r])
        st->held[p][ci][r]--;
    else if (st->unknown[p] && st->pool[ci][r]) {
        st->pool[ci][r]--;
        st->unknown[p]--;
    } else
        return 0;  /* R103 to R105 */
    if (discard) {
        if (st->pile_n[ci] >= PILEMAX)
            return 0;
        st->pile[ci][st->pile_n[ci]++] = (unsigned char)r;
    } else {
        st->last[p][ci] = (signed char)r;
        if (r == T.handshake)
            st->hs[p][ci]++;
        else
            st->mask[p][ci] |= 1u << r;
    }
    if (T.pile[draw] && !T.move_color[draw]) {
        if (st->have_deck) {
            if (st->deck_top >= st->deck_size)
                return 0;
            st->held[p][st->deck_c[st->deck_top]][st->deck_r[st->deck_top]]++;
            st->deck_top++;
        } else
            st->unknown[p]++;
        st->high--;
    } else {
        src = st->cidx[draw];
        if (src < 0 || (src == ci && discard) || !st->pile_n[src])
            return 0;  /* R106 to R108 */
        st->held[p][src][st->pile[src][--st->pile_n[src]]]++;
    }
    st->turn++;
    return 1;
}

/* The moves, replayed as they are read, up to the end of the data or, with
 * split, up to a header line (' ' and '\t', then "[": the game ends there).
 * CLEAN (v->end set), CLOSER or MORE (the data ends first, not final). */
static int replay(Reading *r, int split, int final, State *st, Verdict *v)
{
    const unsigned char *s = r->s;
    Py_ssize_t n = r->n;
    int pending = 0;
    for (;;) {
        Py_ssize_t start, end, i;
        unsigned char c;
        if (!skip_space(r, pending))
            return CLOSER;  /* a move number alone on its line */
        if (r->pos >= n)
            break;
        start = r->pos;
        if (split && r->line_start && s[start] == '[') {
            /* A header line after the moves: the next game starts here. */
            v->end = r->line_at;
            return pending ? CLOSER : CLEAN;
        }
        /* A token: printable ASCII up to white space (a local end: a store
         * through r could change any byte of s, to the compiler). */
        for (end = start; end < n && s[end] > ' ' && s[end] < 0x7f; end++)
            ;
        if (end == start || (end < n && s[end] != ' ' && s[end] != '\t' && s[end] != '\n'
                             && !(s[end] == '\r' && r->crlf)))
            return CLOSER;  /* other white space, control or non-ASCII characters */
        r->pos = end;
        r->line_start = 0;
        c = s[start];
        if (c >= '0' && c <= '9') {
            /* A move number: digits and a dot, no leading zero, its turn's. */
            long value = 0;
            if (c == '0' || end - start > 5 || s[end - 1] != '.')
                return CLOSER;
            for (i = start; i < end - 1; i++) {
                c = s[i];
                if (c < '0' || c > '9')
                    return CLOSER;
                value = value * 10 + (long)(c - '0');
            }
            if (pending || value != v->moves + 1)
                return CLOSER;
            pending = 1;
        } else {
            /* A move: colour, rank, discard marker or none, hyphen, draw. */
            int rank, discard;
            unsigned char draw;
            if (!move_of(s, start, end, &rank, &discard, &draw))
                return CLOSER;
            pending = 0;
            v->moves++;
            v->discarded |= discard;
            if (!step(st, st->cidx[c], rank, discard, draw))
                return CLOSER;
        }
    }
    if (split && !final)
        return MORE;
    v->end = n;
    return pending ? CLOSER : CLEAN;  /* a number without its move */
}

/* The Result header's value s[a:b] against the totals: 1 when it is "*" or
 * the totals as two plain integers. */
static int result_holds(const unsigned char *s, Py_ssize_t a, Py_ssize_t b, const int *total)
{
    long claimed[2];
    int j;
    if (b - a == 1 && s[a] == '*')
        return 1;
    for (j = 0; j < 2; j++) {
        int negative = 0, digits = 0;
        long v = 0;
        if (a < b && s[a] == '-') {
            negative = 1;
            a++;
        }
        while (a < b && s[a] >= '0' && s[a] <= '9') {
            if (digits == 0 && s[a] == '0' && a + 1 < b && s[a + 1] >= '0' && s[a + 1] <= '9')
                return 0;  /* a leading zero */
            v = v * 10 + (long)(s[a] - '0');
            a++;
            if (++digits > 7)
                return 0;
        }
        if (!digits || (negative && v == 0))
            return 0;
        claimed[j] = negative ? -v : v;
        if (j == 0) {
            if (a >= b || s[a] != '-')
                return 0;
            a++;
        }
    }
    return a == b && claimed[0] == total[0] && claimed[1] == total[1];
}

/* Check the game at s[0] (UTF-8, n bytes of data from there).  Without
 * split, the n bytes are the game; with split (scan: "\r\n" reads as '\n'),
 * the game ends at the first header line after its moves, as the reader
 * splits a file (a clean game holds no other line that could end it), or at
 * the end of the data when final.  CLEAN and *v; CLOSER; MORE: clean so
 * far, but the data ends first; -1: a Python error. */
static int check_game(const unsigned char *s, Py_ssize_t n, int split, int final,
                      const Colours *defaults, Verdict *v)
{
    Hdr h[MAXH];
    int nh, which[5], j, verdict;
    State st;
    Reading r = {s, n, 0, split, 1, 0, 0, 0};

    v->moves = 0;
    v->discarded = 0;
    if (!headers_of(&r, h, &nh) || !tags_of(s, h, nh, which)
        || !game_colours(s, which[COLORS] >= 0 ? &h[which[COLORS]] : NULL, defaults, &st)
        || !dealt(s, h, which, &st))
        return CLOSER;
    verdict = replay(&r, split, final, &st, v);
    if (verdict != CLEAN || st.high)
        return verdict == MORE ? MORE : CLOSER;  /* the round is incomplete (R110) */
    /* (A header line that ends the game has only ' ' and '\t' before its
     * "[": the counts are those of the game's bytes.) */
    v->lines = r.lines;
    v->wide = r.wide;
    /* The scores, and the Result header against them (R204, N122). */
    for (j = 0; j < 2; j++) {
        int ci;
        v->total[j] = 0;
        for (ci = 0; ci < st.n; ci++) {
            int points;
            if (st.hs[j][ci] >= T.score_h)
                return CLOSER;
            points = score_of(st.hs[j][ci], st.mask[j][ci]);
            if (points == INT_MIN)
                return -1;
            v->total[j] += points;
        }
    }
    if (which[RESULT] >= 0
        && !result_holds(s, h[which[RESULT]].value, h[which[RESULT]].value_end, v->total))
        return CLOSER;
    return CLEAN;
}

static int ready(void)
{
    if (!T.ready)
        PyErr_SetString(PyExc_RuntimeError, "_speedups.configure() was not called");
    return T.ready;
}

static PyObject *check(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *text;
    const unsigned char *s;
    Py_ssize_t n;
    Colours defaults;
    Verdict v;
    int clean;

    if (nargs != 2 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "check(text, default_colors)");
        return NULL;
    }
    if (!ready())
        return NULL;
    text = args[0];
    if (PyUnicode_IS_ASCII(text)) {
        s = (const unsigned char *)PyUnicode_DATA(text);
        n = PyUnicode_GET_LENGTH(text);
    } else {
        s = (const unsigned char *)PyUnicode_AsUTF8AndSize(text, &n);
        if (s == NULL) {  /* a lone surrogate: the Python way reads it */
            PyErr_Clear();
            Py_RETURN_NONE;
        }
    }
    colours_of(args[1], &defaults);
    clean = check_game(s, n, 0, 1, &defaults, &v);
    if (clean < 0)
        return NULL;
    if (clean != CLEAN)
        Py_RETURN_NONE;
    return Py_BuildValue("(nOii)", v.moves, v.discarded ? Py_True : Py_False, v.total[0],
                         v.total[1]);
}

/* ------------------------------------------------------------ splitting a file */

/* The reader splits a file into games where a header line (one whose first
 * character, after blanks, is "[") follows movetext; whether it does is
 * decided by the text since the header line before it (reader.split_games,
 * text.ranges.next_boundary).  Here the bytes are read line by line and a
 * stretch of lines (from one header line to the next) is judged by the first
 * character of each line, after ' ' and '\t': a blank line and a header
 * alone on its line hold no move, a line that starts with any other printable
 * ASCII character but "{", "}" and ";" holds one; a stretch whose first
 * other line is anything else (a comment, a character that is not ASCII, a
 * header with more on its line) is judged by judge(bytes), the reader's own
 * rule. */

enum { L_BLANK, L_HEADER, L_MOVES, L_OTHER };

/* Where the line that holds s[i] ends (its '\n' or '\r', or n). */
static Py_ssize_t line_end(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    while (i < n && s[i] != '\n' && s[i] != '\r')
        i++;
    return i;
}

/* Where the next line starts, after the line end at s[e] (or n). */
static Py_ssize_t after_line_end(const unsigned char *s, Py_ssize_t e, Py_ssize_t n)
{
    if (e < n && s[e] == '\r' && e + 1 < n && s[e + 1] == '\n')
        e++;
    return e < n ? e + 1 : n;
}

/* Whether the line that starts at s[i] is a header line: blanks that may
 * stand before a header, then "[". */
static int header_line(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    while (i < n) {
        unsigned char c = s[i];
        int k;
        if (c < 128) {
            if (!T.line_blank[c])
                return c == '[';
            i++;
            continue;
        }
        for (k = 0; k < T.nwide; k++)
            if (n - i >= T.wide_len[k] && memcmp(s + i, T.wide_blank[k], (size_t)T.wide_len[k]) == 0)
                break;
        if (k == T.nwide)
            return 0;
        i += T.wide_len[k];
    }
    return 0;
}

/* Whether the line s[i:e] is one header alone, with ' ' and '\t' around it
 * (the grammar's HEADER, escapes and all: a subset of the reader's
 * header_alone). */
static int header_alone(const unsigned char *s, Py_ssize_t i, Py_ssize_t e)
{
    Hdr h;
    i = header_at(s, skip_blanks(s, i, e), e, &h, NULL);
    if (i < 0)
        return 0;
    while (i < e && s[i] < 128 && T.line_blank[s[i]])
        i++;
    return i == e;
}

/* What the line s[i:e] tells of its stretch (L_BLANK, ...). */
static int line_kind(const unsigned char *s, Py_ssize_t i, Py_ssize_t e)
{
    unsigned char c;
    Py_ssize_t j = skip_blanks(s, i, e);
    if (j == e)
        return L_BLANK;
    c = s[j];
    if (c == '[')
        return header_alone(s, i, e) ? L_HEADER : L_OTHER;
    if (c > ' ' && c < 0x7f && c != '{' && c != '}' && c != ';')
        return L_MOVES;
    return L_OTHER;
}

/* Whether the stretch s[a:b] holds movetext, by the reader's own rule. */
static int judged(PyObject *judge, const unsigned char *s, Py_ssize_t a, Py_ssize_t b)
{
    PyObject *raw = PyBytes_FromStringAndSize((const char *)s + a, b - a), *answer;
    int holds;
    if (raw == NULL)
        return -1;
    answer = PyObject_CallOneArg(judge, raw);
    Py_DECREF(raw);
    if (answer == NULL)
        return -1;
    holds = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    return holds;
}

/* The game that starts at s[a] (a game's start): where the next one starts
 * (*end) and the line ends between (*lines).  1: found; 0: the data ended
 * first (*end = n); -1: a Python error. */
static int game_end(const unsigned char *s, Py_ssize_t a, Py_ssize_t n, PyObject *judge,
                    Py_ssize_t *end, Py_ssize_t *lines)
{
    Py_ssize_t i = a, stretch = a;
    int kind = L_BLANK;  /* of the stretch so far: L_BLANK (no move yet), L_MOVES, L_OTHER */
    *lines = 0;
    while (i < n) {
        Py_ssize_t e;
        if (i > stretch && header_line(s, i, n)) {
            int cut = kind == L_MOVES ? 1 : kind == L_BLANK ? 0 : judged(judge, s, stretch, i);
            if (cut < 0)
                return -1;
            if (cut) {
                *end = i;
                return 1;
            }
            stretch = i;
            kind = L_BLANK;
        }
        e = line_end(s, i, n);
        if (kind == L_BLANK) {
            int k = line_kind(s, i, e);
            if (k == L_MOVES || k == L_OTHER)
                kind = k;
        }
        if (e < n)
            (*lines)++;
        i = after_line_end(s, e, n);
    }
    *end = n;
    return 0;
}

static PyObject *scan(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const unsigned char *s;
    Py_ssize_t n, pos, games = 0, moves = 0, lines = 0, chars = 0, next = -1;
    int final, discarded = 0;
    Colours defaults;
    PyObject *judge;

    if (nargs != 5 || !PyBytes_Check(args[0]) || !PyLong_Check(args[1])
        || !PyCallable_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "scan(data: bytes, start, final, default_colors, judge)");
        return NULL;
    }
    if (!ready())
        return NULL;
    s = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    n = PyBytes_GET_SIZE(args[0]);
    pos = PyLong_AsSsize_t(args[1]);
    if (pos == -1 && PyErr_Occurred())
        return NULL;
    if (pos < 0 || pos > n) {
        PyErr_SetString(PyExc_ValueError, "scan: start out of range");
        return NULL;
    }
    final = PyObject_IsTrue(args[2]);
    if (final < 0)
        return NULL;
    colours_of(args[3], &defaults);
    judge = args[4];
    while (pos < n) {
        Py_ssize_t end, ends;
        Verdict v;
        int clean = check_game(s + pos, n - pos, 1, final, &defaults, &v), found;
        if (clean < 0)
            return NULL;
        if (clean == MORE)
            break;  /* the game goes on past the data */
        if (clean == CLEAN && v.end <= T.max_game) {
            games++;
            moves += v.moves;
            discarded |= v.discarded;
            lines += v.lines;
            chars += v.end - v.wide;
            pos += v.end;
            continue;
        }
        /* A game to look closer at: where it ends, as the reader splits. */
        found = game_end(s, pos, n, judge, &end, &ends);
        if (found < 0)
            return NULL;
        if (found || final)
            next = end;
        break;
    }
    if (pos == n)
        next = n;
    return Py_BuildValue("(nnnOnnn)", pos, games, moves, discarded ? Py_True : Py_False, lines,
                         chars, next);
}

/* ------------------------------------------------------------ counting line ends */

#define ONES 0x0101010101010101ULL

/* How many bytes of s[0:n] are c: eight bytes at a time, each byte of the
 * word that is c marked by its high bit, the marks summed in byte lanes
 * (at most 255 words at a time, so that no lane overflows). */
static Py_ssize_t count_byte(const unsigned char *s, Py_ssize_t n, unsigned char c)
{
    const uint64_t pattern = ONES * c, low7 = ONES * 0x7f;
    Py_ssize_t i = 0, count = 0;
    while (n - i >= 8) {
        uint64_t lanes = 0;
        Py_ssize_t words = (n - i) / 8 > 255 ? 255 : (n - i) / 8;
        for (; words > 0; words--, i += 8) {
            uint64_t w, x;
            memcpy(&w, s + i, 8);
            x = w ^ pattern;                          /* a byte that is c: 0 */
            lanes += ~(((x & low7) + low7) | x) >> 7 & ONES;  /* 1 where it was 0 */
        }
        lanes = (lanes & 0x00ff00ff00ff00ffULL) + (lanes >> 8 & 0x00ff00ff00ff00ffULL);
        count += (Py_ssize_t)((lanes * 0x0001000100010001ULL) >> 48);
    }
    for (; i < n; i++)
        count += s[i] == c;
    return count;
}

/* line_ends(data) -> (crlf, cr, lf): the line ends of data as
 * core.lineends.byte_line_ends counts them (a CRLF cut in two at the end
 * counts as a lone CR). */
static PyObject *line_ends(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    const unsigned char *s, *at;
    Py_ssize_t n, lf, cr = 0, crlf = 0;
    if (nargs != 1 || !PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "line_ends(data: bytes)");
        return NULL;
    }
    s = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    n = PyBytes_GET_SIZE(args[0]);
    lf = count_byte(s, n, '\n');
    for (at = n ? memchr(s, '\r', (size_t)n) : NULL; at != NULL;
         at = memchr(at + 1, '\r', (size_t)(s + n - at - 1))) {
        if (at + 1 < s + n && at[1] == '\n')
            crlf++;
        else
            cr++;
    }
    return Py_BuildValue("(nnn)", crlf, cr, lf - crlf);
}

static PyMethodDef methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     "configure(**tables): the lexical and rules tables, from Python (lostcities/accel.py)."},
    {"check", (PyCFunction)(void (*)(void))check, METH_FASTCALL,
     "check(text, default_colors): (moves, discarded, total1, total2) for a clean game, "
     "else None (look closer)."},
    {"scan", (PyCFunction)(void (*)(void))scan, METH_FASTCALL,
     "scan(data, start, final, default_colors, judge): the clean games of a file's bytes "
     "from start: (end, games, moves, discarded, lines, chars, next)."},
    {"line_ends", (PyCFunction)(void (*)(void))line_ends, METH_FASTCALL,
     "line_ends(data): (crlf, cr, lf), the line ends of bytes."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups",
                                    "The compiled accelerator of lint's fused path.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__speedups(void)
{
    classify_values();
    return PyModule_Create(&module);
}
