/* The compiled clean path of `lcn freecell check` (issue 25, item 5).
 *
 * One question per record, answered "clean" or "look closer":
 *
 * check(text) reads the text of one Standard FreeCell Notation record and
 * answers either (deal, moves) -- the record names Microsoft deal `deal`,
 * shows it as dealt, and its `moves` moves, replayed with Horne automoves,
 * are legal and win: checking it (lcnotation.freecell.checker.check) finds
 * nothing and says "won" -- or None: "look closer", and the record goes the
 * Python way (parse, then check), which says what is wrong.  It never says
 * anything else, so it cannot change a report; it accepts a strict subset
 * of the records the Python check calls won without a diagnostic, and at the
 * least doubt it says None.  tests/test_freecell_speedups.py holds it to the
 * Python check.
 *
 * The tables are not written here: configure() receives them from Python
 * (lcnotation/freecell/accel.py), which takes them from the modules that own
 * them: the rank letters and suits and which suits are red, the deck in the
 * order the deal picks from (cards.py), the number of columns, the highest
 * deal number and the constants of Microsoft's generator (deals.py), the
 * freecells' names, the home pile's name, the move prefixes, the Game# line's
 * prefix and Horne's rule's two distances (rules.py).  What is written here
 * is the shape of what is read, the canonical layout that `lcn freecell
 * import` writes:
 *
 *   - ASCII only, '\n' line ends (no '\r', no tab, no trailing blank, no
 *     blank line, no BOM: anything else is None);
 *   - the Game# line: the prefix, then the deal number in digits (no sign,
 *     no leading zero), nothing after it;
 *   - the freecell+home line of a fresh deal: the freecells as two blanks
 *     each, separated by '-', then '+' (formatter.layout_text's);
 *   - the column section of that deal exactly as formatter.column_rows
 *     writes it: a row per line, each card two characters, a blank place two
 *     blanks, one blank between columns, the row's trailing blanks cut;
 *   - then solution lines, each of one or more moves of three characters
 *     (a prefix, a source, a target) and nothing else: no marker, no comment;
 *     the last line may end without '\n'.
 *
 * The rules are written here a second time, on arrays, as
 * lcnotation/freecell/deals.py and state.py have them: the deal
 * (deals.deal: the generator picks each card from what is left of the deck,
 * dealt row by row), a move (Position.play: a freecell's card, or the run a
 * column may carry -- to an empty column the longest run the freecells and
 * empty columns allow, (free freecells + 1) << (empty columns but the
 * target), or one card with the single prefix; onto a card the run down to
 * the card that fits on it, within the same limit), then the automoves of
 * Horne's rule (Position.move_settled and automove: the columns in order,
 * then the freecells, again until a pass sends nothing).  The tests hold
 * the two equal: replay() gives the position after any moves (a deal's
 * before any), which they compare with Python's.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define MAXCOLS 9      /* columns are named by one digit, 1 to 9 */
#define MAXCELLS 8     /* freecells */
#define NSUITS 4
#define MAXRANK 15     /* ranks 1 .. MAXRANK */
#define MAXDEPTH 64    /* cards of one column (52 at most) */
#define MAXPREFIX 32   /* characters of the Game# line's prefix */
#define LINEMAX (3 * MAXCOLS + 1)

typedef unsigned char card_t;   /* suit * 16 + rank; 0: no card */

static struct {
    int ready;
    char ranks[MAXRANK + 1];    /* rank letters, index + 1 the rank */
    int nranks;
    char suits[NSUITS + 1];
    int red[NSUITS];
    int partner[NSUITS], other_a[NSUITS], other_b[NSUITS];
    int columns;
    char cells[MAXCELLS + 1];   /* the freecells' names */
    int ncells;
    char home, single, longest;
    char prefix[MAXPREFIX + 1];
    int nprefix;
    long long deal_limit;
    int other_below, partner_below;
    card_t deck[NSUITS * MAXRANK];  /* the deck in the order the deal picks from */
    int ndeck;
    unsigned long long multiplier, increment, mask, pro_from, wide_from;
    unsigned shift, low_bits, wide_bits, pro_bit;
    short place[256];           /* a move's place by its character: column index,
                                   100 + freecell index, 200 home, -1 none */
} T;

#define PLACE_CELL 100
#define PLACE_HOME 200

/* ------------------------------------------------------------ configure */

static int text_of(PyObject *kw, const char *name, char *out, int least, int most, int *len)
{
    PyObject *value = kw ? PyDict_GetItemString(kw, name) : NULL;
    Py_ssize_t n;
    const char *s;
    if (value == NULL || !PyUnicode_Check(value) || !PyUnicode_IS_ASCII(value)) {
        PyErr_Format(PyExc_ValueError, "configure(): %s must be ASCII text", name);
        return -1;
    }
    s = PyUnicode_AsUTF8AndSize(value, &n);
    if (s == NULL)
        return -1;
    if (n < least || n > most || (Py_ssize_t)strlen(s) != n) {
        PyErr_Format(PyExc_ValueError, "configure(): %s of %d to %d characters expected",
                     name, least, most);
        return -1;
    }
    memcpy(out, s, (size_t)n);
    out[n] = 0;
    if (len)
        *len = (int)n;
    return 0;
}

static int number_of(PyObject *kw, const char *name, long long least, long long most,
                     long long *out)
{
    PyObject *value = kw ? PyDict_GetItemString(kw, name) : NULL;
    long long v;
    if (value == NULL || !PyLong_Check(value)) {
        PyErr_Format(PyExc_ValueError, "configure(): %s must be an int", name);
        return -1;
    }
    v = PyLong_AsLongLong(value);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < least || v > most) {
        PyErr_Format(PyExc_ValueError, "configure(): %s out of range", name);
        return -1;
    }
    *out = v;
    return 0;
}

static int set_place(unsigned char c, int place)
{
    if (T.place[c] != -1 || c == ' ' || c < 32 || c > 126) {
        PyErr_SetString(PyExc_ValueError, "configure(): two places share a name");
        return -1;
    }
    T.place[c] = (short)place;
    return 0;
}

/* The deck, in the order the deal picks from (deals.FULL_DECK): each card
   two characters, rank then suit, every card of the ranks and suits once. */
static int deck_of(PyObject *kw)
{
    char text[2 * NSUITS * MAXRANK + 1];
    int n, i, j;
    if (text_of(kw, "deck", text, 2, 2 * NSUITS * MAXRANK, &n) < 0)
        return -1;
    T.ndeck = n / 2;
    for (i = 0; i < T.ndeck; i++) {
        const char *rank = strchr(T.ranks, text[2 * i]), *suit = strchr(T.suits, text[2 * i + 1]);
        if (rank == NULL || suit == NULL || !text[2 * i] || !text[2 * i + 1])
            break;
        T.deck[i] = (card_t)(((suit - T.suits) << 4) | (rank - T.ranks + 1));
        for (j = 0; j < i && T.deck[j] != T.deck[i]; j++)
            ;
        if (j < i)
            break;
    }
    if (n % 2 || i < T.ndeck || T.ndeck != NSUITS * T.nranks) {
        PyErr_SetString(PyExc_ValueError, "configure(): the deck must hold every card once");
        return -1;
    }
    return 0;
}

/* The Microsoft generator's constants (deals.GENERATOR). */
static int generator_of(PyObject *kw)
{
    long long v[9];
    static const char *names[9] = {"multiplier", "increment", "mask", "shift", "low_bits",
                                   "wide_bits", "pro_from", "pro_bit", "wide_from"};
    int i;
    for (i = 0; i < 9; i++)
        if (number_of(kw, names[i], 0, 0xFFFFFFFFLL + 1, &v[i]) < 0)
            return -1;
    if (v[0] >= (1LL << 31) || v[2] > 0xFFFFFFFFLL || v[3] > 31 || v[8] > T.deal_limit) {
        PyErr_SetString(PyExc_ValueError, "configure(): a generator this code cannot run");
        return -1;
    }
    T.multiplier = (unsigned long long)v[0];
    T.increment = (unsigned long long)v[1];
    T.mask = (unsigned long long)v[2];
    T.shift = (unsigned)v[3];
    T.low_bits = (unsigned)v[4];
    T.wide_bits = (unsigned)v[5];
    T.pro_from = (unsigned long long)v[6];
    T.pro_bit = (unsigned)v[7];
    T.wide_from = (unsigned long long)v[8];
    return 0;
}

static PyObject *configure(PyObject *self, PyObject *args, PyObject *kw)
{
    char red[NSUITS + 1], one[2];
    int nred, n, i, j;
    long long v;
    (void)self;
    if (PyTuple_GET_SIZE(args) != 0) {
        PyErr_SetString(PyExc_TypeError, "configure() takes keyword arguments only");
        return NULL;
    }
    T.ready = 0;
    if (text_of(kw, "ranks", T.ranks, 2, MAXRANK, &T.nranks) < 0
        || text_of(kw, "suits", T.suits, NSUITS, NSUITS, NULL) < 0
        || text_of(kw, "red_suits", red, 0, NSUITS, &nred) < 0
        || text_of(kw, "freecell_names", T.cells, 1, MAXCELLS, &T.ncells) < 0
        || text_of(kw, "game_prefix", T.prefix, 1, MAXPREFIX, &T.nprefix) < 0)
        return NULL;
    if (text_of(kw, "home", one, 1, 1, NULL) < 0)
        return NULL;
    T.home = one[0];
    if (text_of(kw, "single", one, 1, 1, NULL) < 0)
        return NULL;
    T.single = one[0];
    if (text_of(kw, "longest", one, 1, 1, NULL) < 0)
        return NULL;
    T.longest = one[0];
    if (number_of(kw, "columns", 1, MAXCOLS, &v) < 0)
        return NULL;
    T.columns = (int)v;
    if (number_of(kw, "deal_limit", 1, 1LL << 40, &v) < 0)
        return NULL;
    T.deal_limit = v;
    if (number_of(kw, "other_colour_below", 0, MAXRANK, &v) < 0)
        return NULL;
    T.other_below = (int)v;
    if (number_of(kw, "partner_below", 0, MAXRANK, &v) < 0)
        return NULL;
    T.partner_below = (int)v;
    /* Colours: two red suits and two black ones, each suit with a partner of
       its colour and two of the other. */
    for (i = 0; i < NSUITS; i++) {
        for (j = 0; j < i; j++)
            if (T.suits[i] == T.suits[j]) {
                PyErr_SetString(PyExc_ValueError, "configure(): a suit twice");
                return NULL;
            }
        T.red[i] = strchr(red, T.suits[i]) != NULL;
    }
    n = 0;
    for (i = 0; i < NSUITS; i++)
        n += T.red[i];
    if (n != 2 || nred != 2) {
        PyErr_SetString(PyExc_ValueError, "configure(): two red suits of four expected");
        return NULL;
    }
    for (i = 0; i < NSUITS; i++) {
        int others = 0;
        for (j = 0; j < NSUITS; j++) {
            if (j == i)
                continue;
            if (T.red[j] == T.red[i])
                T.partner[i] = j;
            else if (others++ == 0)
                T.other_a[i] = j;
            else
                T.other_b[i] = j;
        }
    }
    for (i = 0; i < T.nranks; i++)
        for (j = 0; j < i; j++)
            if (T.ranks[i] == T.ranks[j]) {
                PyErr_SetString(PyExc_ValueError, "configure(): a rank letter twice");
                return NULL;
            }
    for (i = 0; i < 256; i++)
        T.place[i] = -1;
    for (i = 0; i < T.columns; i++)
        if (set_place((unsigned char)('1' + i), i) < 0)
            return NULL;
    for (i = 0; i < T.ncells; i++)
        if (set_place((unsigned char)T.cells[i], PLACE_CELL + i) < 0)
            return NULL;
    if (set_place((unsigned char)T.home, PLACE_HOME) < 0)
        return NULL;
    if (T.single == T.longest || T.single == '\n' || T.longest == '\n'
        || T.place[(unsigned char)T.single] != -1 || T.place[(unsigned char)T.longest] != -1) {
        PyErr_SetString(PyExc_ValueError, "configure(): the move prefixes must differ");
        return NULL;
    }
    if (deck_of(kw) < 0 || generator_of(kw) < 0)
        return NULL;
    if (PyDict_Size(kw) != 22) {
        PyErr_SetString(PyExc_ValueError, "configure(): unknown tables");
        return NULL;
    }
    T.ready = 1;
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------ the game */

typedef struct {
    card_t col[MAXCOLS][MAXDEPTH];
    int height[MAXCOLS];
    card_t cell[MAXCELLS];
    int home[NSUITS];
} Game;

#define RANK(c) ((c) & 15)
#define SUIT(c) ((c) >> 4)

static int fits_on(card_t card, card_t below)
{
    return RANK(card) == RANK(below) - 1 && T.red[SUIT(card)] != T.red[SUIT(below)];
}

/* Horne's rule (state._safe_above): `card` goes home now. */
static int safe(const Game *g, card_t card)
{
    int s = SUIT(card), pile = g->home[s], rank = RANK(card);
    int a = g->home[T.other_a[s]], b = g->home[T.other_b[s]];
    int other = a < b ? a : b;
    return rank == pile + 1 && pile < T.nranks && other >= rank - T.other_below
           && g->home[T.partner[s]] >= rank - T.partner_below;
}

static void automove(Game *g)
{
    int moved, c;
    do {
        moved = 0;
        for (c = 0; c < T.columns; c++)
            while (g->height[c] && safe(g, g->col[c][g->height[c] - 1])) {
                card_t card = g->col[c][--g->height[c]];
                g->home[SUIT(card)] = RANK(card);
                moved = 1;
            }
        for (c = 0; c < T.ncells; c++)
            if (g->cell[c] && safe(g, g->cell[c])) {
                g->home[SUIT(g->cell[c])] = RANK(g->cell[c]);
                g->cell[c] = 0;
                moved = 1;
            }
    } while (moved);
}

static int limit(const Game *g, int into_empty)
{
    int free = 0, empty = -into_empty, c;
    for (c = 0; c < T.ncells; c++)
        free += g->cell[c] == 0;
    for (c = 0; c < T.columns; c++)
        empty += g->height[c] == 0;
    return (free + 1) << (empty > 0 ? empty : 0);
}

static int run_length(const Game *g, int c)
{
    const card_t *cards = g->col[c];
    int h = g->height[c], n = h ? 1 : 0;
    while (n < h && fits_on(cards[h - n], cards[h - n - 1]))
        n++;
    return n;
}

/* Put `count` cards (`cards`, deepest first) at `to`; 0 when illegal. */
static int place(Game *g, const card_t *cards, int count, int to)
{
    if (to == PLACE_HOME) {
        card_t card = cards[count - 1];
        if (g->home[SUIT(card)] != RANK(card) - 1)
            return 0;
        g->home[SUIT(card)] = RANK(card);
    }
    else if (to >= PLACE_CELL) {
        if (g->cell[to - PLACE_CELL])
            return 0;
        g->cell[to - PLACE_CELL] = cards[count - 1];
    }
    else {
        int h = g->height[to];
        if (h && !fits_on(cards[0], g->col[to][h - 1]))
            return 0;
        if (h + count > MAXDEPTH)
            return 0;
        memcpy(g->col[to] + h, cards, (size_t)count);
        g->height[to] = h + count;
    }
    return 1;
}

/* Position.move_settled: the move, then its automoves; 0 when illegal. */
static int play(Game *g, int from, int to, int single)
{
    if (from == to)
        return 0;
    if (from >= PLACE_CELL) {
        card_t card = g->cell[from - PLACE_CELL];
        if (!card || !place(g, &card, 1, to))
            return 0;
        g->cell[from - PLACE_CELL] = 0;
    }
    else {
        card_t *cards = g->col[from];
        int h = g->height[from], n = 1;
        if (!h)
            return 0;
        if (to < PLACE_CELL) {  /* Position._run_for */
            if (g->height[to] == 0) {
                if (!single) {
                    int run = run_length(g, from), most = limit(g, 1);
                    n = run == 1 ? 1 : (run < most ? run : most);
                }
            }
            else {
                card_t below = g->col[to][g->height[to] - 1];
                while (!fits_on(cards[h - n], below)) {
                    if (n < h && fits_on(cards[h - n], cards[h - n - 1]))
                        n++;
                    else
                        return 0;
                }
                if (n > 1 && n > limit(g, 0))
                    return 0;
            }
        }
        if (!place(g, cards + h - n, n, to))
            return 0;
        g->height[from] = h - n;
    }
    if (to == PLACE_HOME)
        automove(g);
    else if (from < PLACE_CELL && g->height[from]) {
        card_t top = g->col[from][g->height[from] - 1];
        if (safe(g, top))
            automove(g);
    }
    return 1;
}

/* ------------------------------------------------------------ the deal */

/* Deal `number` into `g` (deals.deal): the generator picks each card from
   what is left of the deck, the last card taking the place of the one
   picked, and the cards are dealt row by row. */
static void deal_cards(long long number, Game *g)
{
    unsigned long long n = (unsigned long long)number;
    int wide = n >= T.wide_from, left, dealt = 0;
    unsigned long long state = wide ? n - T.wide_from : n;
    unsigned high = !wide && n >= T.pro_from ? T.pro_bit : 0;
    card_t deck[NSUITS * MAXRANK];
    memset(g, 0, sizeof *g);
    memcpy(deck, T.deck, (size_t)T.ndeck);
    for (left = T.ndeck; left > 0; left--, dealt++) {
        unsigned long long random;
        int pick, c = dealt % T.columns;
        state = (state * T.multiplier + T.increment) & T.mask;
        random = wide ? ((state >> T.shift) & T.wide_bits) + 1
                      : ((state >> T.shift) & T.low_bits) | high;
        pick = (int)(random % (unsigned long long)left);
        g->col[c][g->height[c]++] = deck[pick];
        deck[pick] = deck[left - 1];
    }
}

/* The deal's column section as formatter.column_rows writes it: row `row`
   into `out`; its length. */
static int row_text(const Game *g, int row, char *out)
{
    int c, n = 0;
    for (c = 0; c < T.columns; c++) {
        if (c)
            out[n++] = ' ';
        if (row < g->height[c]) {
            card_t card = g->col[c][row];
            out[n++] = T.ranks[RANK(card) - 1];
            out[n++] = T.suits[SUIT(card)];
        }
        else {
            out[n++] = ' ';
            out[n++] = ' ';
        }
    }
    while (n && out[n - 1] == ' ')
        n--;
    return n;
}

/* ------------------------------------------------------------ reading */

typedef struct {
    long long number;   /* the deal */
    Py_ssize_t moves;   /* the moves played (before the first illegal one) */
    int illegal;        /* a move was illegal: the replay stopped before it */
    Game game;          /* the position reached */
} Replay;

/* Read the record `text` (the one argument of the function `name`) and
   replay its moves up to the first illegal one: 1 when it has the shape read
   here, 0 when not (None), -1 on an exception. */
static int read_record(PyObject *const *args, Py_ssize_t nargs, const char *name, Replay *r)
{
    const char *s, *end, *eol;
    Game *g = &r->game;
    int c, depth = 0, i;
    char line[LINEMAX];
    PyObject *text;
    if (nargs != 1 || !PyUnicode_Check(args[0])) {
        PyErr_Format(PyExc_TypeError, "%s(text) takes one str", name);
        return -1;
    }
    text = args[0];
    if (!T.ready) {
        PyErr_SetString(PyExc_RuntimeError, "_speedups.configure() was not called");
        return -1;
    }
    r->number = 0;
    r->moves = 0;
    r->illegal = 0;
    if (!PyUnicode_IS_COMPACT_ASCII(text))
        return 0;
    s = (const char *)PyUnicode_1BYTE_DATA(text);
    end = s + PyUnicode_GET_LENGTH(text);

    /* The Game# line. */
    if (end - s < T.nprefix || memcmp(s, T.prefix, (size_t)T.nprefix) != 0)
        return 0;
    s += T.nprefix;
    if (s >= end || *s < '0' || *s > '9' || (*s == '0' && s + 1 < end && s[1] != '\n'))
        return 0;
    for (i = 0; s < end && *s >= '0' && *s <= '9'; s++, i++) {
        if (i == 12)
            return 0;
        r->number = r->number * 10 + (*s - '0');
    }
    if (r->number >= T.deal_limit || s >= end || *s++ != '\n')
        return 0;

    /* The freecell+home line of a fresh deal. */
    for (i = 0; i < T.ncells; i++) {
        if (end - s < 3 || s[0] != ' ' || s[1] != ' ' || s[2] != (i + 1 < T.ncells ? '-' : '+'))
            return 0;
        s += 3;
    }
    if (s >= end || *s++ != '\n')
        return 0;

    /* The columns: the deal's, as the formatter writes them. */
    deal_cards(r->number, g);
    for (c = 0; c < T.columns; c++)
        if (g->height[c] > depth)
            depth = g->height[c];
    for (i = 0; i < depth; i++) {
        int n = row_text(g, i, line);
        if (end - s <= n || memcmp(s, line, (size_t)n) != 0 || s[n] != '\n')
            return 0;
        s += n + 1;
    }

    /* The solution: every line read, its moves replayed up to an illegal one. */
    automove(g);
    while (s < end) {
        eol = memchr(s, '\n', (size_t)(end - s));
        if (eol == NULL)
            eol = end;
        if (eol == s || (eol - s) % 3 != 0)
            return 0;
        for (; s < eol; s += 3) {
            int from = T.place[(unsigned char)s[1]], to = T.place[(unsigned char)s[2]];
            if ((s[0] != T.single && s[0] != T.longest) || from < 0 || from == PLACE_HOME
                || to < 0)
                return 0;
            if (r->illegal)
                continue;
            if (play(g, from, to, s[0] == T.single))
                r->moves++;
            else
                r->illegal = 1;
        }
        s = eol + 1;
    }
    return 1;
}

/* ------------------------------------------------------------ check */

static PyObject *check(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Replay r;
    int i, got;
    (void)self;
    got = read_record(args, nargs, "check", &r);
    if (got < 0)
        return NULL;
    if (!got || r.illegal)
        Py_RETURN_NONE;
    for (i = 0; i < NSUITS; i++)
        if (r.game.home[i] != T.nranks)
            Py_RETURN_NONE;
    return Py_BuildValue("(Ln)", r.number, r.moves);
}

/* replay(text): for the tests, which hold the replay to state.py's move by
   move: None when the record is not of the shape read, else (moves played,
   whether the next was illegal, the position reached as
   formatter.layout_text writes it). */
static PyObject *replay(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    Replay r;
    Game *g = &r.game;
    char out[(MAXDEPTH + 1) * (LINEMAX + 1) + 4 * MAXCELLS + 16];
    int i, n = 0, got, depth = 0;
    (void)self;
    got = read_record(args, nargs, "replay", &r);
    if (got < 0)
        return NULL;
    if (!got)
        Py_RETURN_NONE;
    for (i = 0; i < T.ncells; i++) {
        card_t card = g->cell[i];
        out[n++] = card ? T.ranks[RANK(card) - 1] : ' ';
        out[n++] = card ? T.suits[SUIT(card)] : ' ';
        out[n++] = i + 1 < T.ncells ? '-' : '+';
    }
    for (i = 0; i < NSUITS; i++) {
        if (i)
            out[n++] = ' ';
        out[n++] = g->home[i] ? T.ranks[g->home[i] - 1] : ' ';
        out[n++] = g->home[i] ? T.suits[i] : ' ';
    }
    while (n && out[n - 1] == ' ')
        n--;
    out[n++] = '\n';
    for (i = 0; i < T.columns; i++)
        if (g->height[i] > depth)
            depth = g->height[i];
    for (i = 0; i < depth; i++) {
        n += row_text(g, i, out + n);
        out[n++] = '\n';
    }
    return Py_BuildValue("(nOs#)", r.moves, r.illegal ? Py_True : Py_False, out, (Py_ssize_t)n);
}

static PyMethodDef methods[] = {
    {"configure", (PyCFunction)(void (*)(void))configure, METH_VARARGS | METH_KEYWORDS,
     "configure(**tables): the rules tables, from Python (freecell/accel.py)."},
    {"check", (PyCFunction)(void (*)(void))check, METH_FASTCALL,
     "check(text): (deal, moves) for a record that is won and clean, else None "
     "(look closer)."},
    {"replay", (PyCFunction)(void (*)(void))replay, METH_FASTCALL,
     "replay(text): (moves played, whether the next is illegal, the position reached), "
     "for the tests; None when the record is not of the shape read."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_speedups",
                                    "The compiled clean path of lcn freecell check.", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
