/* Optional compiled table filler for ChERRANT's character alignment
 * (gecmetrics/core/lang/zh/align.py, whose python_table is the reference; the tests check that
 * both give the same tables).
 *
 *   fill(source, target, features, readings, confusion) -> (operations, transpositions)
 *
 * source, target: bytes of native int32, one local token index per position (0..L-1; equal
 * indices are equal tokens). features: bytes of L * 6 native int64 per local token: Cilin
 * first letter, second letter and two digits (code points; the first is -1 without a Cilin
 * code), is punctuation, is Chinese (U+4E00..U+9FFF only, one character), its code point.
 * readings[t]: bytes of sorted int64 ids of token t's toneless pinyin readings; confusion[t]:
 * bytes of sorted int64 code points of the one-character entries of its confusion set.
 *
 * Returns the operations of every cell ((n+1) * (m+1) bytes, row-major: bits 1 transposition,
 * 2 substitution, 4 insertion, 8 deletion, 16 match) and the transposition length of every
 * cell (native int32, 0 where there is none).
 *
 * Floating point: costs are computed with the same double operations in the same order as the
 * reference (semantic / 6.0 + character + punctuation, then the cumulative sums); setup.py
 * passes -ffp-contract=off so that no fused multiply-add changes a rounding, so ties between
 * operations fall exactly as in ChERRANT.
 *
 * The transposition search finds what ChERRANT's loop finds (the shortest window pair, going
 * back along the diagonal while its steps are not free, whose tokens are the same multiset)
 * without walking the diagonal cell by cell, which made two long unrelated lines cubic (5,000
 * characters: minutes). Window pairs ending in (i, j) are the same multiset only where
 * S[i+1] - T[j+1] == S[x] - T[x-d], S and T being prefix sums of a 64-bit hash of the tokens
 * (a bijection of the token index) along diagonal d = i - j; a first pass links every cell to
 * the nearest earlier cell of its diagonal with the same difference, and the fill follows those
 * links only, checking each candidate's multisets exactly before taking it (a hash collision is
 * then skipped, never taken), and only as far back as the last free step of the diagonal.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { TRANSPOSE = 1, SUBSTITUTE = 2, INSERT = 4, DELETE = 8, MATCH = 16 };
enum { F_HIGH = 0, F_MID = 1, F_LOW = 2, F_PUNCT = 3, F_CHINESE = 4, F_CODE = 5, N_FEATURES = 6 };

typedef struct {
    const int64_t *values;
    Py_ssize_t length;
} IntSlice;

static int read_slices(PyObject *list, Py_ssize_t count, IntSlice *out, const char *name) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != count) {
        PyErr_Format(PyExc_ValueError, "%s must be a list of %zd bytes objects", name, count);
        return -1;
    }
    for (Py_ssize_t t = 0; t < count; t++) {
        PyObject *item = PyList_GET_ITEM(list, t);
        if (!PyBytes_Check(item) || PyBytes_GET_SIZE(item) % (Py_ssize_t)sizeof(int64_t) != 0) {
            PyErr_Format(PyExc_ValueError, "%s must hold bytes of int64", name);
            return -1;
        }
        out[t].values = (const int64_t *)PyBytes_AS_STRING(item);
        out[t].length = PyBytes_GET_SIZE(item) / (Py_ssize_t)sizeof(int64_t);
    }
    return 0;
}

static int sorted_contains(IntSlice s, int64_t value) {
    Py_ssize_t low = 0, high = s.length;
    while (low < high) {
        Py_ssize_t middle = low + (high - low) / 2;
        if (s.values[middle] < value)
            low = middle + 1;
        else
            high = middle;
    }
    return low < s.length && s.values[low] == value;
}

static int sorted_intersect(IntSlice a, IntSlice b) {
    Py_ssize_t i = 0, j = 0;
    while (i < a.length && j < b.length) {
        if (a.values[i] == b.values[j])
            return 1;
        if (a.values[i] < b.values[j])
            i++;
        else
            j++;
    }
    return 0;
}

typedef struct {
    Py_ssize_t tokens;
    const int64_t *features;
    IntSlice *readings;
    IntSlice *confusion;
    double *memo; /* tokens * tokens substitution costs, NAN until computed */
} Costs;

static double substitution_cost(Costs *c, int32_t a, int32_t b) {
    double *slot = &c->memo[(Py_ssize_t)a * c->tokens + b];
    if (!isnan(*slot))
        return *slot;
    const int64_t *fa = c->features + (Py_ssize_t)a * N_FEATURES, *fb = c->features + (Py_ssize_t)b * N_FEATURES;
    int semantic;
    if (fa[F_HIGH] < 0 || fb[F_HIGH] < 0) {
        semantic = 4;
    } else {
        int agree = (fa[F_HIGH] == fb[F_HIGH]) + (fa[F_MID] == fb[F_MID]) + (fa[F_LOW] == fb[F_LOW]);
        semantic = agree == 3 ? 0 : 2 * (3 - agree);
    }
    double punctuation;
    if (fa[F_PUNCT] && fb[F_PUNCT])
        punctuation = 0.0;
    else if (!fa[F_PUNCT] && !fb[F_PUNCT])
        punctuation = 0.25;
    else
        punctuation = 0.499;
    double character;
    if (!(fa[F_CHINESE] && fb[F_CHINESE])) {
        character = 0.5;
    } else {
        int close = sorted_intersect(c->readings[a], c->readings[b])
                    || sorted_contains(c->confusion[b], fa[F_CODE])
                    || sorted_contains(c->confusion[a], fb[F_CODE]);
        character = close ? 0.0 : 0.5;
    }
    double cost = (double)semantic / 6.0 + character + punctuation;
    *slot = cost;
    return cost;
}

static uint64_t token_hash(uint64_t x) { /* splitmix64's finaliser: a bijection of 64-bit words */
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/* previous[cell] = the row of the nearest earlier cell of the same diagonal whose prefix-hash
 * difference is the same, or -1. One open-addressing table, cleared per diagonal. */
static int link_equal_differences(const int32_t *src, Py_ssize_t n, const int32_t *tgt, Py_ssize_t m,
                                  int32_t *previous) {
    Py_ssize_t width = m + 1, longest = (n < m ? n : m) + 1, size = 2;
    while (size < 2 * longest)
        size *= 2;
    uint64_t *prefix_src = PyMem_Malloc((size_t)(n + 1) * sizeof(uint64_t));
    uint64_t *prefix_tgt = PyMem_Malloc((size_t)(m + 1) * sizeof(uint64_t));
    uint64_t *keys = PyMem_Malloc((size_t)size * sizeof(uint64_t));
    int32_t *rows = PyMem_Malloc((size_t)size * sizeof(int32_t));
    if (prefix_src == NULL || prefix_tgt == NULL || keys == NULL || rows == NULL) {
        PyMem_Free(prefix_src);
        PyMem_Free(prefix_tgt);
        PyMem_Free(keys);
        PyMem_Free(rows);
        PyErr_NoMemory();
        return -1;
    }
    prefix_src[0] = prefix_tgt[0] = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        prefix_src[i + 1] = prefix_src[i] + token_hash((uint64_t)src[i]);
    for (Py_ssize_t j = 0; j < m; j++)
        prefix_tgt[j + 1] = prefix_tgt[j] + token_hash((uint64_t)tgt[j]);
    for (Py_ssize_t d = -m; d <= n; d++) {
        Py_ssize_t first = d > 0 ? d : 0, last = n < m + d ? n : m + d;
        Py_ssize_t length = last - first + 1, mask = 1;
        while (mask < 2 * length)
            mask *= 2;
        mask -= 1;
        for (Py_ssize_t slot = 0; slot <= mask; slot++)
            rows[slot] = -1;
        for (Py_ssize_t r = first; r <= last; r++) {
            uint64_t key = prefix_src[r] - prefix_tgt[r - d];
            Py_ssize_t slot = (Py_ssize_t)(token_hash(key) & (uint64_t)mask);
            while (rows[slot] >= 0 && keys[slot] != key)
                slot = (slot + 1) & mask;
            previous[r * width + (r - d)] = rows[slot];
            keys[slot] = key;
            rows[slot] = (int32_t)r;
        }
    }
    PyMem_Free(prefix_src);
    PyMem_Free(prefix_tgt);
    PyMem_Free(keys);
    PyMem_Free(rows);
    return 0;
}

/* Whether src[x..i] and tgt[x-d..j] hold the same tokens as many times each (balance: all 0
 * on entry, left so). */
static int same_multiset(const int32_t *src, const int32_t *tgt, Py_ssize_t x, Py_ssize_t i, Py_ssize_t j,
                         int32_t *balance) {
    Py_ssize_t k = i - x, unbalanced = 0;
    for (Py_ssize_t back = 0; back <= k; back++) {
        int32_t a = src[i - back], b = tgt[j - back];
        unbalanced -= balance[a] != 0;
        balance[a] += 1;
        unbalanced += balance[a] != 0;
        unbalanced -= balance[b] != 0;
        balance[b] -= 1;
        unbalanced += balance[b] != 0;
    }
    for (Py_ssize_t back = 0; back <= k; back++) {
        balance[src[i - back]] = 0;
        balance[tgt[j - back]] = 0;
    }
    return unbalanced == 0;
}

static PyObject *fill(PyObject *self, PyObject *args) {
    Py_buffer src_buffer, tgt_buffer, feature_buffer;
    PyObject *readings_list, *confusion_list, *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*OO", &src_buffer, &tgt_buffer, &feature_buffer, &readings_list,
                          &confusion_list))
        return NULL;
    Costs costs;
    memset(&costs, 0, sizeof(costs));
    double *cost = NULL;
    int32_t *balance = NULL, *previous = NULL;
    Py_ssize_t *last_free = NULL;
    PyObject *ops_bytes = NULL, *trans_bytes = NULL;
    if (src_buffer.len % 4 || tgt_buffer.len % 4 || feature_buffer.len % (N_FEATURES * 8)) {
        PyErr_SetString(PyExc_ValueError, "source and target must be int32 bytes, features int64 rows of 6");
        goto done;
    }
    Py_ssize_t n = src_buffer.len / 4, m = tgt_buffer.len / 4;
    const int32_t *src = (const int32_t *)src_buffer.buf, *tgt = (const int32_t *)tgt_buffer.buf;
    costs.tokens = feature_buffer.len / (N_FEATURES * 8);
    costs.features = (const int64_t *)feature_buffer.buf;
    for (Py_ssize_t i = 0; i < n; i++)
        if (src[i] < 0 || src[i] >= costs.tokens) {
            PyErr_SetString(PyExc_ValueError, "source token index out of range");
            goto done;
        }
    for (Py_ssize_t j = 0; j < m; j++)
        if (tgt[j] < 0 || tgt[j] >= costs.tokens) {
            PyErr_SetString(PyExc_ValueError, "target token index out of range");
            goto done;
        }
    Py_ssize_t slots = costs.tokens ? costs.tokens : 1;
    costs.readings = PyMem_Calloc((size_t)slots, sizeof(IntSlice));
    costs.confusion = PyMem_Calloc((size_t)slots, sizeof(IntSlice));
    costs.memo = PyMem_Malloc((size_t)(slots * slots) * sizeof(double));
    balance = PyMem_Calloc((size_t)slots, sizeof(int32_t));
    Py_ssize_t width = m + 1, cells = (n + 1) * (m + 1);
    cost = PyMem_Malloc((size_t)cells * sizeof(double));
    previous = PyMem_Malloc((size_t)cells * sizeof(int32_t));
    last_free = PyMem_Malloc((size_t)(n + m + 1) * sizeof(Py_ssize_t));
    ops_bytes = PyBytes_FromStringAndSize(NULL, cells);
    trans_bytes = PyBytes_FromStringAndSize(NULL, cells * (Py_ssize_t)sizeof(int32_t));
    if (costs.readings == NULL || costs.confusion == NULL || costs.memo == NULL || balance == NULL || cost == NULL
        || previous == NULL || last_free == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    if (n >= INT32_MAX || m >= INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "sentences too long for the alignment table");
        goto done;
    }
    if (ops_bytes == NULL || trans_bytes == NULL)
        goto done;
    if (read_slices(readings_list, costs.tokens, costs.readings, "readings") < 0 ||
        read_slices(confusion_list, costs.tokens, costs.confusion, "confusion") < 0)
        goto done;
    for (Py_ssize_t k = 0; k < slots * slots; k++)
        costs.memo[k] = NAN;
    if (link_equal_differences(src, n, tgt, m, previous) < 0)
        goto done;
    /* last_free[d + m]: the row of the last free diagonal step into diagonal d (its first row
     * while there is none): the transposition search goes no further back */
    for (Py_ssize_t d = -m; d <= n; d++)
        last_free[d + m] = d > 0 ? d : 0;
    uint8_t *ops = (uint8_t *)PyBytes_AS_STRING(ops_bytes);
    int32_t *trans = (int32_t *)PyBytes_AS_STRING(trans_bytes);
    memset(ops, 0, (size_t)cells);
    memset(trans, 0, (size_t)cells * sizeof(int32_t));
    cost[0] = 0.0;
    for (Py_ssize_t i = 1; i <= n; i++) {
        cost[i * width] = cost[(i - 1) * width] + 1;
        ops[i * width] = DELETE;
    }
    for (Py_ssize_t j = 1; j <= m; j++) {
        cost[j] = cost[j - 1] + 1;
        ops[j] = INSERT;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t a = src[i];
        for (Py_ssize_t j = 0; j < m; j++) {
            Py_ssize_t here = (i + 1) * width + j + 1, diagonal = i * width + j;
            int32_t b = tgt[j];
            Py_ssize_t d = i - j;
            if (a == b) {
                cost[here] = cost[diagonal];
                ops[here] = MATCH;
                last_free[d + m] = i + 1;
                continue;
            }
            double delete_cost = cost[diagonal + 1] + 1;
            double insert_cost = cost[here - 1] + 1;
            double substitute_cost = cost[diagonal] + substitution_cost(&costs, a, b);
            double transpose_cost = INFINITY;
            /* ChERRANT's transposition search: windows src[i-k..i] and tgt[j-k..j] grow while the
             * diagonal step into them is not free; a window pair that is the same multiset
             * of tokens gives a transposition of k+1 tokens costing k. The candidates are the
             * linked cells (see the top of the file), nearest first. */
            Py_ssize_t k = 0;
            for (Py_ssize_t x = previous[here]; x >= 0 && x >= last_free[d + m]; x = previous[x * width + x - d]) {
                if (x < i && same_multiset(src, tgt, x, i, j, balance)) {
                    k = i - x;
                    transpose_cost = cost[x * width + x - d] + (double)k;
                    break;
                }
            }
            double best = transpose_cost;
            if (substitute_cost < best)
                best = substitute_cost;
            if (insert_cost < best)
                best = insert_cost;
            if (delete_cost < best)
                best = delete_cost;
            cost[here] = best;
            uint8_t found = 0;
            if (transpose_cost == best) {
                found |= TRANSPOSE;
                trans[here] = (int32_t)(k + 1);
            }
            if (substitute_cost == best)
                found |= SUBSTITUTE;
            if (insert_cost == best)
                found |= INSERT;
            if (delete_cost == best)
                found |= DELETE;
            ops[here] = found;
            if (best == cost[diagonal])
                last_free[d + m] = i + 1;
        }
    }
    result = PyTuple_Pack(2, ops_bytes, trans_bytes);
done:
    Py_XDECREF(ops_bytes);
    Py_XDECREF(trans_bytes);
    PyMem_Free(costs.readings);
    PyMem_Free(costs.confusion);
    PyMem_Free(costs.memo);
    PyMem_Free(balance);
    PyMem_Free(cost);
    PyMem_Free(previous);
    PyMem_Free(last_free);
    PyBuffer_Release(&src_buffer);
    PyBuffer_Release(&tgt_buffer);
    PyBuffer_Release(&feature_buffer);
    return result;
}

static PyMethodDef module_methods[] = {
    {"fill", fill, METH_VARARGS,
     "fill(source, target, features, readings, confusion) -> (operation bytes, int32 transposition lengths)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "gecmetrics.core._zhalign",
    "Compiled ChERRANT character alignment table (optional; gecmetrics/core/lang/zh/align.py has the reference).",
    -1, module_methods,
};

PyMODINIT_FUNC PyInit__zhalign(void) {
    return PyModule_Create(&module_definition);
}
