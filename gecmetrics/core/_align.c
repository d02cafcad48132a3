/* Optional compiled alignment of two parsed sentences (gecmetrics/annotate/align.py), and the base
 * edges of the MaxMatch lattice (lattice_edges, at the end of the file).
 *
 * The pure-Python implementation in align.py is the reference; this module fills the same
 * cost and operation matrices without the interpreter, and the test suite checks that both
 * give the same alignments. The behaviour is ERRANT 3.0.2's: a Damerau-Levenshtein alignment
 * whose substitution cost is linguistic (lemma, part of speech, characters) and whose
 * transpositions may span several tokens, or plain Levenshtein with `lev`.
 *
 *   align(orig_features, cor_features, orig_texts, cor_texts, lev) -> operations
 *
 * A sentence's features cross as bytes of native int32, four per token: (orth id, lower id,
 * lemma id, part-of-speech code), the code being 2 * (part-of-speech id) + 1 for the open
 * classes (ADJ, ADV, NOUN, VERB). Texts are the tokens' strings (the character cost is over
 * code points). The result is bytes of int32, one per operation from left to right:
 * 0 match, 1 substitution, 2 insertion, 3 deletion, 10 + k a transposition of k tokens.
 *
 * Floating point: every cost is computed with the same double operations in the same order
 * as the reference (no fused multiply-add; setup.py passes -ffp-contract=off), so that ties
 * between operations are broken identically.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { OP_MATCH = 0, OP_SUB = 1, OP_INS = 2, OP_DEL = 3, OP_TRANSPOSE = 10 };
enum { F_ORTH = 0, F_LOWER = 1, F_LEMMA = 2, F_POS = 3, N_FEATURES = 4 };

typedef struct {
    Py_ssize_t length;
    const int32_t *features;
    Py_UCS4 **texts;
    Py_ssize_t *text_lengths;
} Sentence;

static void sentence_free(Sentence *s) {
    if (s->texts != NULL) {
        for (Py_ssize_t i = 0; i < s->length; i++)
            PyMem_Free(s->texts[i]);
        PyMem_Free(s->texts);
    }
    PyMem_Free(s->text_lengths);
    s->texts = NULL;
    s->text_lengths = NULL;
}

/* Read one sentence: its features (bytes) and its token texts (a list of str). */
static int sentence_read(Sentence *s, Py_buffer *features, PyObject *texts, const char *name) {
    memset(s, 0, sizeof(*s));
    if (!PyList_Check(texts)) {
        PyErr_Format(PyExc_TypeError, "%s texts must be a list of str", name);
        return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(texts);
    if (features->len != n * N_FEATURES * (Py_ssize_t)sizeof(int32_t)) {
        PyErr_Format(PyExc_ValueError, "%s features must hold %d int32 per token", name, N_FEATURES);
        return -1;
    }
    s->length = n;
    s->features = (const int32_t *)features->buf;
    s->texts = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Py_UCS4 *));
    s->text_lengths = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Py_ssize_t));
    if (s->texts == NULL || s->text_lengths == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *text = PyList_GET_ITEM(texts, i);
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "%s texts must be a list of str", name);
            return -1;
        }
        s->texts[i] = PyUnicode_AsUCS4Copy(text);
        if (s->texts[i] == NULL)
            return -1;
        s->text_lengths[i] = PyUnicode_GET_LENGTH(text);
    }
    return 0;
}

static inline int32_t feature(const Sentence *s, Py_ssize_t i, int which) {
    return s->features[i * N_FEATURES + which];
}

/* Length of the longest common subsequence of two code point strings. */
static Py_ssize_t lcs_length(const Py_UCS4 *a, Py_ssize_t la, const Py_UCS4 *b, Py_ssize_t lb, Py_ssize_t *row) {
    memset(row, 0, (size_t)(lb + 1) * sizeof(Py_ssize_t));
    for (Py_ssize_t x = 0; x < la; x++) {
        Py_ssize_t diagonal = 0;
        for (Py_ssize_t y = 0; y < lb; y++) {
            Py_ssize_t above = row[y + 1];
            if (a[x] == b[y])
                row[y + 1] = diagonal + 1;
            else if (row[y] > above)
                row[y + 1] = row[y];
            diagonal = above;
        }
    }
    return row[lb];
}

/* ERRANT's substitution cost: 0 for a change of case only, else lemma + POS + character cost. */
static double substitution_cost(const Sentence *o, Py_ssize_t i, const Sentence *c, Py_ssize_t j, Py_ssize_t *row) {
    if (feature(o, i, F_LOWER) == feature(c, j, F_LOWER))
        return 0.0;
    double lemma_cost = feature(o, i, F_LEMMA) == feature(c, j, F_LEMMA) ? 0.0 : 0.499;
    int32_t o_pos = feature(o, i, F_POS), c_pos = feature(c, j, F_POS);
    double pos_cost = o_pos == c_pos ? 0.0 : ((o_pos & 1) && (c_pos & 1) ? 0.25 : 0.5);
    Py_ssize_t la = o->text_lengths[i], lb = c->text_lengths[j];
    Py_ssize_t total = la + lb;
    double char_cost = 0.0;
    if (total) {
        Py_ssize_t distance = total - 2 * lcs_length(o->texts[i], la, c->texts[j], lb, row);
        char_cost = (double)distance / (double)total;
    }
    return lemma_cost + pos_cost + char_cost;
}

static int compare_int32(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Whether the lower-case ids of orig[i-k..i] and cor[j-k..j] are the same multiset. */
static int same_multiset(const Sentence *o, Py_ssize_t i, const Sentence *c, Py_ssize_t j, Py_ssize_t k,
                         int32_t *left, int32_t *right) {
    for (Py_ssize_t t = 0; t <= k; t++) {
        left[t] = feature(o, i - k + t, F_LOWER);
        right[t] = feature(c, j - k + t, F_LOWER);
    }
    qsort(left, (size_t)(k + 1), sizeof(int32_t), compare_int32);
    qsort(right, (size_t)(k + 1), sizeof(int32_t), compare_int32);
    return memcmp(left, right, (size_t)(k + 1) * sizeof(int32_t)) == 0;
}

typedef struct {
    double *cost;
    int32_t *op;
    Py_ssize_t columns;
    Py_ssize_t *row;
    int32_t *left, *right;
} Work;

#define COST(w, i, j) ((w)->cost[(i) * (w)->columns + (j)])
#define OP(w, i, j) ((w)->op[(i) * (w)->columns + (j)])

/* One cell (i + 1, j + 1) of a non-matching pair: the cheapest of transposition,
 * substitution, insertion and deletion, the first one on ties. */
static void fill_cell(Work *w, const Sentence *o, Py_ssize_t i, const Sentence *c, Py_ssize_t j, int lev) {
    double del_cost = COST(w, i, j + 1) + 1;
    double ins_cost = COST(w, i + 1, j) + 1;
    double trans_cost = INFINITY, sub_cost;
    Py_ssize_t k = 1;
    if (lev) {
        sub_cost = COST(w, i, j) + 1;
    } else {
        sub_cost = COST(w, i, j) + substitution_cost(o, i, c, j, w->row);
        while (i - k >= 0 && j - k >= 0 && COST(w, i - k + 1, j - k + 1) != COST(w, i - k, j - k)) {
            if (same_multiset(o, i, c, j, k, w->left, w->right)) {
                trans_cost = COST(w, i - k, j - k) + (double)k;
                break;
            }
            k++;
        }
    }
    double best = trans_cost;
    int32_t op = (int32_t)(OP_TRANSPOSE + k + 1);
    if (sub_cost < best) { best = sub_cost; op = OP_SUB; }
    if (ins_cost < best) { best = ins_cost; op = OP_INS; }
    if (del_cost < best) { best = del_cost; op = OP_DEL; }
    COST(w, i + 1, j + 1) = best;
    OP(w, i + 1, j + 1) = op;
}

static void fill_matrices(Work *w, const Sentence *o, const Sentence *c, int lev) {
    Py_ssize_t n = o->length, m = c->length;
    COST(w, 0, 0) = 0.0;
    OP(w, 0, 0) = -1;
    for (Py_ssize_t i = 1; i <= n; i++) {
        COST(w, i, 0) = COST(w, i - 1, 0) + 1;
        OP(w, i, 0) = OP_DEL;
    }
    for (Py_ssize_t j = 1; j <= m; j++) {
        COST(w, 0, j) = COST(w, 0, j - 1) + 1;
        OP(w, 0, j) = OP_INS;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        for (Py_ssize_t j = 0; j < m; j++) {
            if (feature(o, i, F_ORTH) == feature(c, j, F_ORTH)) {
                COST(w, i + 1, j + 1) = COST(w, i, j);
                OP(w, i + 1, j + 1) = OP_MATCH;
            } else {
                fill_cell(w, o, i, c, j, lev);
            }
        }
    }
}

/* Walk back from the bottom right corner; return the operations from left to right. */
static PyObject *cheapest_sequence(Work *w, Py_ssize_t n, Py_ssize_t m) {
    int32_t *sequence = PyMem_Malloc((size_t)(n + m + 1) * sizeof(int32_t));
    if (sequence == NULL)
        return PyErr_NoMemory();
    Py_ssize_t count = 0, i = n, j = m;
    while (i + j != 0) {
        int32_t op = OP(w, i, j);
        sequence[count++] = op;
        if (op == OP_MATCH || op == OP_SUB) { i--; j--; }
        else if (op == OP_DEL) { i--; }
        else if (op == OP_INS) { j--; }
        else { i -= op - OP_TRANSPOSE; j -= op - OP_TRANSPOSE; }
    }
    for (Py_ssize_t a = 0, b = count - 1; a < b; a++, b--) {
        int32_t t = sequence[a];
        sequence[a] = sequence[b];
        sequence[b] = t;
    }
    PyObject *result = PyBytes_FromStringAndSize((const char *)sequence, count * (Py_ssize_t)sizeof(int32_t));
    PyMem_Free(sequence);
    return result;
}

static PyObject *align(PyObject *self, PyObject *args) {
    Py_buffer o_features, c_features;
    PyObject *o_texts, *c_texts, *result = NULL;
    int lev;
    if (!PyArg_ParseTuple(args, "y*y*OOp", &o_features, &c_features, &o_texts, &c_texts, &lev))
        return NULL;
    Sentence o, c;
    Work w;
    memset(&w, 0, sizeof(w));
    memset(&c, 0, sizeof(c));
    if (sentence_read(&o, &o_features, o_texts, "orig") < 0 || sentence_read(&c, &c_features, c_texts, "cor") < 0)
        goto done;
    Py_ssize_t n = o.length, m = c.length, longest = 1;
    for (Py_ssize_t j = 0; j < m; j++)
        if (c.text_lengths[j] + 1 > longest)
            longest = c.text_lengths[j] + 1;
    w.columns = m + 1;
    w.cost = PyMem_Malloc((size_t)((n + 1) * (m + 1)) * sizeof(double));
    w.op = PyMem_Malloc((size_t)((n + 1) * (m + 1)) * sizeof(int32_t));
    w.row = PyMem_Malloc((size_t)longest * sizeof(Py_ssize_t));
    w.left = PyMem_Malloc((size_t)(n + 1) * sizeof(int32_t));
    w.right = PyMem_Malloc((size_t)(n + 1) * sizeof(int32_t));
    if (w.cost == NULL || w.op == NULL || w.row == NULL || w.left == NULL || w.right == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    fill_matrices(&w, &o, &c, lev);
    result = cheapest_sequence(&w, n, m);
done:
    sentence_free(&o);
    sentence_free(&c);
    PyMem_Free(w.cost);
    PyMem_Free(w.op);
    PyMem_Free(w.row);
    PyMem_Free(w.left);
    PyMem_Free(w.right);
    PyBuffer_Release(&o_features);
    PyBuffer_Release(&c_features);
    return result;
}

/* ------------------------------------------------------------------------------------------
 * The MaxMatch lattice's base edges (gecmetrics/core/edits/lattice/alignment.py, min_cost_edges:
 * the reference, same tables and edges in the same order).
 *
 *   lattice_edges(source_ids, hypothesis_ids, max_band_cells)
 *       -> None when the band would need more than max_band_cells cells (-1: no bound), else
 *          (bytes of int64 triples (u, w, schemes): every edge of a minimum-cost alignment of
 *           both cost schemes in the reference's order, bytes of int64: the vertices, sorted)
 *
 * Token ids are native int64 (equal tokens, equal ids). The costs of both schemes (substitution
 * 1 and 2, insertion and deletion 1) are integers filled in a band widened as the reference
 * widens it; the walk back visits the vertices from the last down, as the reference's max-heap
 * pops them, and tries the diagonal, up and left predecessors in its order. */

static void banded_costs(const int64_t *source, const int64_t *hypothesis, Py_ssize_t n, Py_ssize_t m,
                         Py_ssize_t slack, int64_t *costs1, int64_t *costs2) {
    Py_ssize_t width = m + 1, size = (n + 1) * width;
    int64_t infinity = 4 * (int64_t)(n + m) + 1;
    Py_ssize_t low_shift = (n - m < 0 ? n - m : 0) - slack, high_shift = (n - m > 0 ? n - m : 0) + slack;
    for (Py_ssize_t k = 0; k < size; k++)
        costs1[k] = costs2[k] = infinity;
    for (Py_ssize_t j = 0; j <= (m < -low_shift ? m : -low_shift); j++)
        costs1[j] = costs2[j] = j;
    for (Py_ssize_t i = 1; i <= n; i++) {
        int64_t token = source[i - 1], left1, left2;
        Py_ssize_t j_low = i - high_shift > 0 ? i - high_shift : 0, j_high = i - low_shift < m ? i - low_shift : m;
        if (j_low > j_high)
            continue;
        Py_ssize_t row = i * width;
        if (j_low == 0) {
            costs1[row] = costs2[row] = i;
            j_low = 1;
            left1 = left2 = i;
        } else {
            left1 = left2 = infinity;
        }
        for (Py_ssize_t w = row + j_low; w <= row + j_high; w++) {
            Py_ssize_t up = w - width;
            int64_t best1, best2, other;
            if (token == hypothesis[w - row - 1]) {
                best1 = costs1[up - 1];
                best2 = costs2[up - 1];
            } else {
                best1 = costs1[up - 1] + 1;
                best2 = costs2[up - 1] + 2;
            }
            other = costs1[up] + 1;
            if (other < best1)
                best1 = other;
            if (left1 + 1 < best1)
                best1 = left1 + 1;
            other = costs2[up] + 1;
            if (other < best2)
                best2 = other;
            if (left2 + 1 < best2)
                best2 = left2 + 1;
            costs1[w] = left1 = best1;
            costs2[w] = left2 = best2;
        }
    }
}

typedef struct {
    int64_t *items;
    Py_ssize_t count, capacity;
} Int64List;

static int int64_append(Int64List *list, int64_t a, int64_t b, int64_t c, int three) {
    if (list->count + 3 > list->capacity) {
        Py_ssize_t capacity = list->capacity ? 2 * list->capacity : 96;
        int64_t *items = PyMem_Realloc(list->items, (size_t)capacity * sizeof(int64_t));
        if (items == NULL)
            return -1;
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = a;
    if (three) {
        list->items[list->count++] = b;
        list->items[list->count++] = c;
    }
    return 0;
}

static const int64_t SCHEMES[4] = {0, 1, 1, 2};

/* One predecessor u of w: the schemes whose cost steps from u to w by ``step`` (1 or 2 for the
 * second scheme's substitution); its edge, and u's mask. */
static int step_back(const int64_t *costs1, const int64_t *costs2, Py_ssize_t u, Py_ssize_t w, int64_t here1,
                     int64_t here2, int64_t step1, int64_t step2, unsigned char *masks, Int64List *edges) {
    int bits = (costs1[u] + step1 == here1) | ((costs2[u] + step2 == here2) << 1);
    if (!bits)
        return 0;
    masks[u] |= (unsigned char)bits;
    return int64_append(edges, u, w, SCHEMES[bits], 1);
}

static int optimal_edges(const int64_t *costs1, const int64_t *costs2, const int64_t *source,
                         const int64_t *hypothesis, Py_ssize_t n, Py_ssize_t m, unsigned char *masks,
                         Int64List *edges, Int64List *vertices) {
    Py_ssize_t width = m + 1, end = (n + 1) * width - 1;
    memset(masks, 0, (size_t)(end + 1));
    masks[end] = 3;
    for (Py_ssize_t w = end; w >= 0; w--) {
        int mask = masks[w];
        if (!mask)
            continue;
        int64_t here1 = mask & 1 ? costs1[w] : -1, here2 = mask & 2 ? costs2[w] : -1;
        Py_ssize_t i = w / width, j = w - i * width;
        if (i) {
            Py_ssize_t u = w - width;
            if (j) {
                int same = source[i - 1] == hypothesis[j - 1];
                if (step_back(costs1, costs2, u - 1, w, here1, here2, same ? 0 : 1, same ? 0 : 2, masks, edges) < 0)
                    return -1;
            }
            if (step_back(costs1, costs2, u, w, here1, here2, 1, 1, masks, edges) < 0)
                return -1;
        }
        if (j && step_back(costs1, costs2, w - 1, w, here1, here2, 1, 1, masks, edges) < 0)
            return -1;
    }
    for (Py_ssize_t w = 0; w <= end; w++)
        if (masks[w] && int64_append(vertices, w, 0, 0, 0) < 0)
            return -1;
    return 0;
}

static PyObject *lattice_edges(PyObject *self, PyObject *args) {
    Py_buffer source_view, hypothesis_view;
    Py_ssize_t max_band_cells;
    if (!PyArg_ParseTuple(args, "y*y*n:lattice_edges", &source_view, &hypothesis_view, &max_band_cells))
        return NULL;
    PyObject *result = NULL;
    int64_t *costs1 = NULL, *costs2 = NULL;
    unsigned char *masks = NULL;
    Int64List edges = {NULL, 0, 0}, vertices = {NULL, 0, 0};
    if (source_view.len % 8 || hypothesis_view.len % 8) {
        PyErr_SetString(PyExc_ValueError, "token ids must be native int64");
        goto done;
    }
    Py_ssize_t n = source_view.len / 8, m = hypothesis_view.len / 8, size = (n + 1) * (m + 1);
    const int64_t *source = source_view.buf, *hypothesis = hypothesis_view.buf;
    Py_ssize_t difference = n > m ? n - m : m - n, slack = 2;
    costs1 = PyMem_Malloc((size_t)size * sizeof(int64_t));
    costs2 = PyMem_Malloc((size_t)size * sizeof(int64_t));
    masks = PyMem_Malloc((size_t)size);
    if (costs1 == NULL || costs2 == NULL || masks == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (;;) {
        if (max_band_cells >= 0 && (n + 1) * (difference + 2 * slack + 1) > max_band_cells) {
            result = Py_NewRef(Py_None);
            goto done;
        }
        banded_costs(source, hypothesis, n, m, slack, costs1, costs2);
        int64_t bound = costs2[size - 1] - difference;
        if (bound <= 2 * slack || slack >= n + m)
            break;
        slack = slack + 1 > (bound + 1) / 2 ? slack + 1 : (Py_ssize_t)((bound + 1) / 2);
    }
    if (optimal_edges(costs1, costs2, source, hypothesis, n, m, masks, &edges, &vertices) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    /* an empty list has no allocation: y# would give None for a NULL pointer */
    result = Py_BuildValue("(y#y#)", edges.items ? (const char *)edges.items : "",
                           edges.count * (Py_ssize_t)sizeof(int64_t),
                           vertices.items ? (const char *)vertices.items : "",
                           vertices.count * (Py_ssize_t)sizeof(int64_t));
done:
    PyMem_Free(costs1);
    PyMem_Free(costs2);
    PyMem_Free(masks);
    PyMem_Free(edges.items);
    PyMem_Free(vertices.items);
    PyBuffer_Release(&source_view);
    PyBuffer_Release(&hypothesis_view);
    return result;
}

/* ----------------------------------------------------------------- the exact search's loops
 * lattice/transitive.py _closure and lattice/exact.py _relax (with its replay of each vertex's
 * history of values), the same operations on the same Python structures (arcs_into: {target:
 * {source: [length, unchanged, [positions], weight]}}; histories: lists of (step, value)
 * tuples): the Python functions are the reference and document the rules. */

static int arc_checked(PyObject *arc) {
    if (!PyList_Check(arc) || PyList_GET_SIZE(arc) < 4 || !PyList_Check(PyList_GET_ITEM(arc, 2))) {
        PyErr_SetString(PyExc_TypeError, "an arc is a list [length, unchanged, positions, weight]");
        return -1;
    }
    return 0;
}

static int arc_fields(PyObject *arc, long long *length, long long *unchanged) {
    if (arc_checked(arc) < 0)
        return -1;
    *length = PyLong_AsLongLong(PyList_GET_ITEM(arc, 0));
    if (*length == -1 && PyErr_Occurred())
        return -1;
    *unchanged = PyLong_AsLongLong(PyList_GET_ITEM(arc, 1));
    if (*unchanged == -1 && PyErr_Occurred())
        return -1;
    return 0;
}

static PyObject *item_of(PyObject *mapping, PyObject *key) {
    /* mapping[key], borrowed; KeyError as Python's indexing raises it */
    PyObject *value = PyDict_GetItemWithError(mapping, key);
    if (value == NULL && !PyErr_Occurred())
        PyErr_SetObject(PyExc_KeyError, key);
    return value;
}

static int set_item(PyObject *list, Py_ssize_t index, PyObject *value) {
    /* list[index] = value, stealing value (NULL: the error of making it) */
    if (value == NULL)
        return -1;
    return PyList_SetItem(list, index, value);
}

static int note_no_change(PyObject *no_change, long long position, PyObject *vi, PyObject *vj, PyObject *arc) {
    PyObject *entry = Py_BuildValue("(LOOO)", position, vi, vj, arc);
    if (entry == NULL)
        return -1;
    int failed = PyList_Append(no_change, entry);
    Py_DECREF(entry);
    return failed;
}

static PyObject *base_arcs(PyObject *self, PyObject *args) {
    PyObject *source, *hypothesis, *base_copies, *vertices, *one_copy, *two_copies;
    if (!PyArg_ParseTuple(args, "O!O!O!O!OO:base_arcs", &PyList_Type, &source, &PyList_Type, &hypothesis,
                          &PyDict_Type, &base_copies, &PyList_Type, &vertices, &one_copy, &two_copies))
        return NULL;
    long long width = PyList_GET_SIZE(hypothesis) + 1, diagonal = width + 1, position = 1;
    PyObject *arcs_into = PyDict_New(), *successors = PyDict_New(), *edges = NULL, *one = NULL, *zero = NULL;
    if (arcs_into == NULL || successors == NULL)
        goto fail;
    for (Py_ssize_t index = 0; index < PyList_GET_SIZE(vertices); index++) {
        PyObject *into = PyDict_New();
        if (into == NULL || PyDict_SetItem(arcs_into, PyList_GET_ITEM(vertices, index), into) < 0) {
            Py_XDECREF(into);
            goto fail;
        }
        Py_DECREF(into);
    }
    edges = PyDict_Keys(base_copies);
    one = PyLong_FromLong(1);
    zero = PyLong_FromLong(0);
    if (edges == NULL || one == NULL || zero == NULL || PyList_Sort(edges) < 0)
        goto fail;
    for (Py_ssize_t index = 0; index < PyList_GET_SIZE(edges); index++) {
        PyObject *edge = PyList_GET_ITEM(edges, index);
        if (!PyTuple_Check(edge) || PyTuple_GET_SIZE(edge) != 2) {
            PyErr_SetString(PyExc_TypeError, "a base edge is a (u, w) tuple");
            goto fail;
        }
        PyObject *u_object = PyTuple_GET_ITEM(edge, 0), *w_object = PyTuple_GET_ITEM(edge, 1);
        long long u = PyLong_AsLongLong(u_object), w = PyLong_AsLongLong(w_object);
        PyObject *copies_object = item_of(base_copies, edge);
        if (copies_object == NULL)
            goto fail;
        long long copies = PyLong_AsLongLong(copies_object);
        if (PyErr_Occurred())
            goto fail;
        int unchanged = 0;
        if (w - u == diagonal) {
            long long i = u / width, j = u % width;
            if (u < 0 || i >= PyList_GET_SIZE(source) || j >= PyList_GET_SIZE(hypothesis)) {
                PyErr_SetString(PyExc_IndexError, "a base edge outside the texts");
                goto fail;
            }
            unchanged = PyObject_RichCompareBool(PyList_GET_ITEM(source, i), PyList_GET_ITEM(hypothesis, j), Py_EQ);
            if (unchanged < 0)
                goto fail;
        }
        PyObject *into = item_of(arcs_into, w_object);
        if (into == NULL)
            goto fail;
        PyObject *arc = PyList_New(4), *positions = PyList_New(copies > 0 ? copies : 0);
        if (arc == NULL || positions == NULL) {
            Py_XDECREF(arc);
            Py_XDECREF(positions);
            goto fail;
        }
        PyList_SET_ITEM(arc, 2, positions);
        for (long long c = 0; c < copies; c++)
            if (set_item(positions, c, PyLong_FromLongLong(position + c)) < 0) {
                Py_DECREF(arc);
                goto fail;
            }
        PyObject *weight = unchanged ? one : copies == 1 ? one_copy : two_copies;
        Py_INCREF(one);
        Py_INCREF(unchanged ? one : zero);
        Py_INCREF(weight);
        PyList_SET_ITEM(arc, 0, one);
        PyList_SET_ITEM(arc, 1, unchanged ? one : zero);
        PyList_SET_ITEM(arc, 3, weight);
        int failed = PyDict_SetItem(into, u_object, arc) < 0;
        Py_DECREF(arc);
        if (failed)
            goto fail;
        position += copies;
        PyObject *out = PyDict_GetItemWithError(successors, u_object);
        if (out == NULL) {
            if (PyErr_Occurred())
                goto fail;
            out = PyList_New(0);
            if (out == NULL || PyDict_SetItem(successors, u_object, out) < 0) {
                Py_XDECREF(out);
                goto fail;
            }
            Py_DECREF(out);
        }
        if (PyList_Append(out, w_object) < 0)
            goto fail;
    }
    Py_DECREF(edges);
    Py_DECREF(one);
    Py_DECREF(zero);
    return Py_BuildValue("(NNL)", arcs_into, successors, position);
fail:
    Py_XDECREF(arcs_into);
    Py_XDECREF(successors);
    Py_XDECREF(edges);
    Py_XDECREF(one);
    Py_XDECREF(zero);
    return NULL;
}

typedef struct {
    PyObject *vj, *into_vj;   /* borrowed */
    long long second_unchanged;
} Target;

static PyObject *closure(PyObject *self, PyObject *args) {
    PyObject *arcs_into, *successors, *vertices;
    long long limit, first_transitive, arc_budget;
    double epsilon;
    if (!PyArg_ParseTuple(args, "O!O!O!LLLd:closure", &PyDict_Type, &arcs_into, &PyDict_Type, &successors,
                          &PyList_Type, &vertices, &limit, &first_transitive, &arc_budget, &epsilon))
        return NULL;
    long long position = first_transitive;
    PyObject *no_change = PyList_New(0), *keys = NULL;
    Target *targets = NULL;
    if (no_change == NULL)
        return NULL;
    for (Py_ssize_t index = 0; index < PyList_GET_SIZE(vertices); index++) {
        PyObject *k = PyList_GET_ITEM(vertices, index);
        PyObject *out = PyDict_GetItemWithError(successors, k);
        if (out == NULL) {
            if (PyErr_Occurred())
                goto fail;
            continue;
        }
        PyObject *into_k = item_of(arcs_into, k);
        if (into_k == NULL)
            goto fail;
        if (!PyDict_Check(into_k) || !PyList_Check(out)) {
            PyErr_SetString(PyExc_TypeError, "arcs_into holds dicts and successors lists");
            goto fail;
        }
        if (PyDict_GET_SIZE(into_k) == 0)
            continue;
        Py_ssize_t count = PyList_GET_SIZE(out);
        /* every target in successor order, then those whose base edge changes a token (for an
           arc into k already at the limit) in the same order */
        PyMem_Free(targets);
        targets = PyMem_Malloc((size_t)(count ? 2 * count : 1) * sizeof(Target));
        if (targets == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
        Target *every = targets, *only_changing = targets + count;
        Py_ssize_t changing = 0;
        for (Py_ssize_t t = 0; t < count; t++) {
            PyObject *vj = PyList_GET_ITEM(out, t);
            PyObject *into_vj = item_of(arcs_into, vj);
            if (into_vj == NULL)
                goto fail;
            PyObject *edge = PyDict_Check(into_vj) ? item_of(into_vj, k) : NULL;
            long long length, unchanged;
            if (edge == NULL || arc_fields(edge, &length, &unchanged) < 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError, "arcs_into holds dicts");
                goto fail;
            }
            targets[t].vj = vj;
            targets[t].into_vj = into_vj;
            targets[t].second_unchanged = unchanged;
            if (unchanged == 0)
                only_changing[changing++] = targets[t];
        }
        Py_XDECREF(keys);
        keys = PyDict_Keys(into_k);
        if (keys == NULL || PyList_Sort(keys) < 0)
            goto fail;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(keys); i++) {
            PyObject *vi = PyList_GET_ITEM(keys, i);
            PyObject *first = item_of(into_k, vi);
            long long first_length, first_unchanged;
            if (first == NULL || arc_fields(first, &first_length, &first_unchanged) < 0)
                goto fail;
            Target *chosen;
            Py_ssize_t chosen_count;
            if (first_unchanged < limit) {
                chosen = every;
                chosen_count = count;
            } else if (first_unchanged == limit) {
                chosen = only_changing;   /* an unchanged second token would exceed the limit */
                chosen_count = changing;
            } else {
                continue;
            }
            long long length = first_length + 1;
            for (Py_ssize_t t = 0; t < chosen_count; t++) {
                PyObject *vj = chosen[t].vj, *into_vj = chosen[t].into_vj;
                long long unchanged = first_unchanged + chosen[t].second_unchanged;
                PyObject *existing = PyDict_GetItemWithError(into_vj, vi);
                if (existing == NULL) {
                    if (PyErr_Occurred())
                        break;
                    PyObject *arc = PyList_New(4), *positions = PyList_New(1);
                    if (arc == NULL || positions == NULL) {
                        Py_XDECREF(arc);
                        Py_XDECREF(positions);
                        break;
                    }
                    PyList_SET_ITEM(arc, 2, positions);
                    if (set_item(positions, 0, PyLong_FromLongLong(position)) < 0
                        || set_item(arc, 0, PyLong_FromLongLong(length)) < 0
                        || set_item(arc, 1, PyLong_FromLongLong(unchanged)) < 0
                        || set_item(arc, 3, unchanged == length ? PyLong_FromLongLong(length)
                                                                : PyFloat_FromDouble((double)length + epsilon)) < 0
                        || PyDict_SetItem(into_vj, vi, arc) < 0
                        || (unchanged == length && note_no_change(no_change, position, vi, vj, arc) < 0)) {
                        Py_DECREF(arc);
                        break;
                    }
                    Py_DECREF(arc);
                } else {
                    long long existing_length, existing_unchanged;
                    if (arc_fields(existing, &existing_length, &existing_unchanged) < 0)
                        break;
                    if (existing_length <= length)
                        continue;
                    PyObject *positions = PyList_GET_ITEM(existing, 2);
                    PyObject *at = PyLong_FromLongLong(position);
                    if (at == NULL || PyList_Append(positions, at) < 0) {
                        Py_XDECREF(at);
                        break;
                    }
                    Py_DECREF(at);
                    PyObject *weight;
                    if (unchanged == length) {
                        weight = PyLong_FromLongLong(length);
                    } else {   /* its length plus EPSILON once per copy, added one by one */
                        double value = (double)length;
                        for (Py_ssize_t copy = 0; copy < PyList_GET_SIZE(positions); copy++)
                            value += epsilon;
                        weight = PyFloat_FromDouble(value);
                    }
                    Py_INCREF(existing);   /* held while its fields change */
                    int failed = set_item(existing, 0, PyLong_FromLongLong(length)) < 0
                        || set_item(existing, 1, PyLong_FromLongLong(unchanged)) < 0
                        || set_item(existing, 3, weight) < 0
                        || (unchanged == length && note_no_change(no_change, position, vi, vj, existing) < 0);
                    Py_DECREF(existing);
                    if (failed)
                        break;
                }
                position++;
            }
            if (PyErr_Occurred())
                goto fail;
        }
        if (position - first_transitive > arc_budget) {   /* ArcBudgetExceeded */
            Py_XDECREF(keys);
            PyMem_Free(targets);
            Py_DECREF(no_change);
            Py_RETURN_NONE;
        }
    }
    Py_XDECREF(keys);
    PyMem_Free(targets);
    PyObject *result = Py_BuildValue("(LN)", position, no_change);
    return result;
fail:
    Py_XDECREF(keys);
    PyMem_Free(targets);
    Py_DECREF(no_change);
    return NULL;
}

/* one offer of the relaxation: the value an arc's source offers its target at a step */
typedef struct {
    long long step;
    double value;
    long long source;      /* the source vertex's number, for ties (Python sorts the tuples) */
    PyObject *vertex;      /* borrowed from arcs_into */
} Offer;

typedef struct {
    Offer *items;
    Py_ssize_t size, capacity;
} Offers;

static int offer_append(Offers *offers, long long step, double value, long long source, PyObject *vertex) {
    if (offers->size == offers->capacity) {
        Py_ssize_t capacity = offers->capacity ? 2 * offers->capacity : 64;
        Offer *items = PyMem_Realloc(offers->items, (size_t)capacity * sizeof(Offer));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        offers->items = items;
        offers->capacity = capacity;
    }
    offers->items[offers->size++] = (Offer){step, value, source, vertex};
    return 0;
}

static int compare_offers(const void *a, const void *b) {
    const Offer *x = a, *y = b;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return (x->source > y->source) - (x->source < y->source);
}

static int history_entry(PyObject *history, Py_ssize_t k, long long *step, double *value) {
    PyObject *entry = PyList_GET_ITEM(history, k);
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 2) {
        PyErr_SetString(PyExc_TypeError, "a history holds (step, value) tuples");
        return -1;
    }
    *step = PyLong_AsLongLong(PyTuple_GET_ITEM(entry, 0));
    if (*step == -1 && PyErr_Occurred())
        return -1;
    *value = PyFloat_AsDouble(PyTuple_GET_ITEM(entry, 1));
    return (*value == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static int first_relaxation(PyObject *positions, long long source_step, long long scale, long long *step) {
    /* the first copy of the arc after the source got its value in that pass, else its first
       copy in the next pass (positions ascend) */
    Py_ssize_t copies = PyList_GET_SIZE(positions);
    if (copies == 0) {
        PyErr_SetString(PyExc_ValueError, "an arc without positions");
        return -1;
    }
    long long source_position = source_step % scale;
    if (source_position < 0)
        source_position += scale;   /* Python's modulo */
    for (Py_ssize_t p = 0; p < copies; p++) {
        long long position = PyLong_AsLongLong(PyList_GET_ITEM(positions, p));
        if (position == -1 && PyErr_Occurred())
            return -1;
        if (position > source_position) {
            *step = position + source_step - source_position;
            return 0;
        }
    }
    long long position = PyLong_AsLongLong(PyList_GET_ITEM(positions, 0));
    if (position == -1 && PyErr_Occurred())
        return -1;
    *step = position + source_step - source_position + scale;
    return 0;
}

static int arc_offers(Offers *offers, PyObject *v, PyObject *arc, PyObject *weights, PyObject *reached,
                      long long scale) {
    /* the offers of one arc (v, w): each value v held, at the arc's first relaxation after v got
       it, unless v held a lower value by then */
    if (arc_checked(arc) < 0)
        return -1;
    PyObject *weight_object = weights != NULL ? PyDict_GetItemWithError(weights, v) : NULL;
    if (weight_object == NULL) {
        if (PyErr_Occurred())
            return -1;
        weight_object = PyList_GET_ITEM(arc, 3);
    }
    double weight = PyFloat_AsDouble(weight_object);
    long long source = PyLong_AsLongLong(v);
    if ((weight == -1.0 || source == -1) && PyErr_Occurred())
        return -1;
    PyObject *history = item_of(reached, v);
    if (history == NULL)
        return -1;
    if (!PyList_Check(history)) {
        PyErr_SetString(PyExc_TypeError, "a vertex's history is a list");
        return -1;
    }
    Py_ssize_t count = PyList_GET_SIZE(history);
    long long source_step, next_step = 0, step;
    double value, next_value = 0;
    if (count > 0 && history_entry(history, 0, &next_step, &next_value) < 0)
        return -1;
    for (Py_ssize_t k = 0; k < count; k++) {
        source_step = next_step;
        value = next_value;
        if (k + 1 < count && history_entry(history, k + 1, &next_step, &next_value) < 0)
            return -1;
        if (first_relaxation(PyList_GET_ITEM(arc, 2), source_step, scale, &step) < 0)
            return -1;
        if (k + 1 < count && step > next_step)
            continue;
        if (offer_append(offers, step, value + weight, source, v) < 0)
            return -1;
    }
    return 0;
}

static int settle(PyObject *w, Offers *offers, PyObject *distance, PyObject *reached, PyObject *predecessor,
                  PyObject *none_chosen) {
    /* w's history: the offers that lower its value, in step order; its predecessor: the source
       of the last one */
    qsort(offers->items, (size_t)offers->size, sizeof(Offer), compare_offers);
    PyObject *kept = PyList_New(0);
    if (kept == NULL)
        return -1;
    double current = Py_HUGE_VAL;
    PyObject *chosen = none_chosen;
    for (Py_ssize_t i = 0; i < offers->size; i++) {
        Offer *offer = &offers->items[i];
        if (!(offer->value < current))
            continue;
        current = offer->value;
        chosen = offer->vertex;
        PyObject *entry = Py_BuildValue("(Ld)", offer->step, offer->value);
        if (entry == NULL || PyList_Append(kept, entry) < 0) {
            Py_XDECREF(entry);
            Py_DECREF(kept);
            return -1;
        }
        Py_DECREF(entry);
    }
    PyObject *value = PyFloat_FromDouble(current);
    int failed = value == NULL || PyDict_SetItem(distance, w, value) < 0 || PyDict_SetItem(reached, w, kept) < 0
                 || PyDict_SetItem(predecessor, w, chosen) < 0;
    Py_XDECREF(value);
    Py_DECREF(kept);
    return failed ? -1 : 0;
}

static PyObject *relax(PyObject *self, PyObject *args) {
    PyObject *arcs_into, *vertices, *changed, *distance, *reached, *predecessor;
    long long scale;
    if (!PyArg_ParseTuple(args, "O!LO!O!O!O!O!:relax", &PyDict_Type, &arcs_into, &scale, &PyList_Type, &vertices,
                          &PyDict_Type, &changed, &PyDict_Type, &distance, &PyDict_Type, &reached,
                          &PyDict_Type, &predecessor))
        return NULL;
    if (scale <= 0) {
        PyErr_SetString(PyExc_ValueError, "the step scale must be positive");
        return NULL;
    }
    PyObject *none_chosen = PyLong_FromLong(-1);
    if (none_chosen == NULL)
        return NULL;
    Offers offers = {NULL, 0, 0};
    for (Py_ssize_t index = 0; index < PyList_GET_SIZE(vertices); index++) {
        PyObject *w = PyList_GET_ITEM(vertices, index);
        PyObject *into = item_of(arcs_into, w);
        if (into == NULL)
            goto fail;
        if (!PyDict_Check(into)) {
            PyErr_SetString(PyExc_TypeError, "arcs_into holds dicts");
            goto fail;
        }
        if (PyDict_GET_SIZE(into) == 0)
            continue;
        PyObject *weights = PyDict_GetItemWithError(changed, w);
        if (weights == NULL && PyErr_Occurred())
            goto fail;
        if (weights != NULL && !PyDict_Check(weights)) {
            PyErr_SetString(PyExc_TypeError, "changed weights are dicts");
            goto fail;
        }
        offers.size = 0;
        Py_ssize_t cursor = 0;
        PyObject *v, *arc;
        while (PyDict_Next(into, &cursor, &v, &arc))
            if (arc_offers(&offers, v, arc, weights, reached, scale) < 0)
                goto fail;
        if (settle(w, &offers, distance, reached, predecessor, none_chosen) < 0)
            goto fail;
    }
    PyMem_Free(offers.items);
    Py_DECREF(none_chosen);
    Py_RETURN_NONE;
fail:
    PyMem_Free(offers.items);
    Py_DECREF(none_chosen);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"align", align, METH_VARARGS,
     "align(orig_features, cor_features, orig_texts, cor_texts, lev) -> int32 bytes of operations"},
    {"lattice_edges", lattice_edges, METH_VARARGS,
     "lattice_edges(source_ids, hypothesis_ids, max_band_cells) -> None, or (int64 bytes of (u, w, schemes) edges,\n"
     "int64 bytes of sorted vertices): the MaxMatch lattice's base edges (lattice/alignment.py min_cost_edges)"},
    {"base_arcs", base_arcs, METH_VARARGS,
     "base_arcs(source, hypothesis, base_copies, vertices, one_copy_weight, two_copies_weight) -> (arcs_into,\n"
     "successors, first free position) (lattice/transitive.py _base_arcs)"},
    {"closure", closure, METH_VARARGS,
     "closure(arcs_into, successors, vertices, limit, first_transitive, arc_budget, epsilon) -> (next position,\n"
     "no-change writes), or None past the arc budget (lattice/transitive.py _closure)"},
    {"relax", relax, METH_VARARGS,
     "relax(arcs_into, step_scale, vertices, changed, distance, reached, predecessor) -> None: the exact search's\n"
     "pass in topological order with each vertex's history of values, filling the three dicts (lattice/exact.py _relax)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "gecmetrics.core._align",
    "Compiled ERRANT-style alignment (optional; gecmetrics/annotate/align.py has the reference).",
    -1, module_methods,
};

PyMODINIT_FUNC PyInit__align(void) {
    return PyModule_Create(&module_definition);
}
