/* Optional compiled running-F choice over many sequences (bootstrap resamples, randomized swaps)
 * of gecmetrics/core/running_f.py; RunningChoice.run in gecmetrics/core/fscore.py is the NumPy
 * reference, and the tests check that both give the same totals.
 *
 *   run(rule, beta, counts, available, rank, candidates, rows, sequences, length, mask_rows)
 *       -> bytes of sequences * 3 native doubles: the totals after the last position
 *   corpus(rule, beta, counts, available, rank, R, P, start)
 *       -> (bytes of R native int64: the candidate chosen at each row, bytes of 3 doubles: the totals)
 *
 * corpus is the choice over the R rows in their own order (one sequence, totals from the three
 * numbers of start), fscore.RunningChoice.corpus's reference loop on Python floats; it returns which
 * candidate (its index p) each row kept, which the report shows.
 *
 * counts: (R * P * 3) native doubles, available: (R * P) bytes (0/1), rank: (R * P) native int64,
 * over R sentence rows and P candidates. rows: which sentence row each sequence takes at each
 * position, row-major (sequences x length): native int64 row numbers when mask_rows is 0; else
 * bytes, a nonzero byte at (n, i) taking row i and a zero byte row length + i (the first R/2 rows
 * are the baseline, the last R/2 the system: a randomized swap), mask_rows = -1 inverting that.
 *
 * Each sequence is walked on its own, position by position: of the available candidates of the
 * row, the one with the greatest comparison keys (those of the rule, most significant first)
 * over the totals so far plus its own counts, then the lowest rank, then the lowest index;
 * its counts are added to the totals. The rows are packed first (one cache line each for two
 * candidates) and those a resample needs a few positions ahead are prefetched: one random memory
 * read per position is what the walk waits for. The keys are the same double operations in the same
 * order as fscore._errant_keys / _maxmatch_keys on NumPy arrays (setup.py passes
 * -ffp-contract=off: no fused multiply-add changes a rounding). ERRANT's F is rounded to 4
 * decimals as Python's round(f, 4) does (the double nearest to the exact value of f rounded half
 * to even at 4 decimals): two rounded values compare as those integers of ten-thousandths, which
 * are found exactly (fma gives the exact error of the product, so no rounding of the product
 * decides a half).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { RULE_ERRANT = 0, RULE_MAXMATCH = 1 };

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define PREFETCH(address) ((void)0)
#endif
#define KEYS 4

/* Sign of 2 * 10^4 * f - m, exactly (m an integer of at most 2^52). */
static int compare_twice_scaled(double f, double m) {
    double high = f * 20000.0;
    if (high != m)
        return high > m ? 1 : -1;
    double low = fma(f, 20000.0, -high);
    return (low > 0) - (low < 0);
}

/* round(f, 4) * 10^4 as Python rounds (half to even on the exact value), as a double integer. */
static double ten_thousandths(double f) {
    double scaled = f * 10000.0, n = floor(scaled), fraction = scaled - n;
    /* |scaled - 10^4 f| < 2e-11 for |f| <= 10: far from an integer and from a half, the rounded
     * product decides as the exact one would */
    if (fabs(f) <= 10.0 && fabs(fraction - 0.5) > 1e-9 && fraction > 1e-9 && fraction < 1.0 - 1e-9)
        return fraction < 0.5 ? n : n + 1.0;
    while (compare_twice_scaled(f, 2.0 * n) < 0)
        n -= 1.0;
    while (compare_twice_scaled(f, 2.0 * (n + 1.0)) >= 0)
        n += 1.0;
    int half = compare_twice_scaled(f, 2.0 * n + 1.0);
    if (half > 0 || (half == 0 && fmod(n, 2.0) != 0.0))
        n += 1.0;
    return n;
}

static double safe(double value) { return value == 0 ? 1 : value; }

/* ERRANT: (round4 F of the cumulative counts, TP, -FP, -FN of the candidate's own). */
static void errant_keys(const double *totals, const double *local, double beta, double *keys) {
    double tp = totals[0] + local[0], fp = totals[1] + local[1], fn = totals[2] + local[2];
    double precision = fp != 0 ? tp / safe(tp + fp) : 1.0;
    double recall = fn != 0 ? tp / safe(tp + fn) : 1.0;
    double f;
    if (isinf(beta)) {
        f = recall;
    } else {
        double denominator = beta * beta * precision + recall;
        f = denominator != 0 ? (1.0 + beta * beta) * precision * recall / safe(denominator) : 0.0;
    }
    keys[0] = ten_thousandths(f);
    keys[1] = local[0];
    keys[2] = -local[1];
    keys[3] = -local[2];
}

/* The M2 scorer: (F of the cumulative counts, correct, -(proposed + b^2 gold)). */
static void maxmatch_keys(const double *totals, const double *local, double beta, double *keys) {
    double correct = totals[0] + local[0], proposed = totals[1] + local[1], gold = totals[2] + local[2];
    if (isinf(beta)) {
        keys[0] = gold != 0 ? correct / safe(gold) : 1.0;
        keys[1] = correct;
        keys[2] = -gold;
    } else {
        double denominator = beta * beta * gold + proposed;
        keys[0] = denominator == 0 ? (correct == 0 ? 1.0 : 0.0) : (1 + beta * beta) * correct / safe(denominator);
        keys[1] = correct;
        keys[2] = -(proposed + beta * beta * gold);
    }
    keys[3] = 0.0;
}

/* Whether keys a are lexicographically greater than keys b (first different key decides). */
static int greater(const double *a, const double *b) {
    for (int k = 0; k < KEYS; k++) {
        if (a[k] != b[k])
            return a[k] > b[k];
    }
    return 0;
}

static void row_keys(int rule, const double *totals, const double *local, double beta, double *keys) {
    if (rule == RULE_ERRANT)
        errant_keys(totals, local, beta, keys);
    else
        maxmatch_keys(totals, local, beta, keys);
}

/* One row of the packed table: the number of candidates to try (1 when the available ones all
 * have the same counts: any choice adds the same; the M2 scorer's leave out those an earlier one
 * dominates), then their counts in trial order (rank, then index), padded to whole cache lines so
 * that a row is one or two memory reads. */
typedef struct {
    double *base;     /* the allocation */
    double *rows;     /* 64-byte aligned */
    Py_ssize_t stride; /* doubles per row */
} Table;

/* The available candidates of one row in trial order (rank, then index: an insertion sort of a
 * few candidates) into tried; their number. */
static Py_ssize_t trial_order(const unsigned char *available, const int64_t *ranks, Py_ssize_t candidates,
                              Py_ssize_t *tried) {
    Py_ssize_t size = 0;
    for (Py_ssize_t p = 0; p < candidates; p++) {
        if (!available[p])
            continue;
        Py_ssize_t k = size++;
        while (k > 0 && ranks[tried[k - 1]] > ranks[p]) {
            tried[k] = tried[k - 1];
            k--;
        }
        tried[k] = p;
    }
    return size;
}

/* Whether every available candidate's counts are M2 scorer counts: 0 <= correct <= proposed and
 * correct <= gold (so are the totals of any choice of them), which :func:`dominated` needs. */
static int m2_counts(const double *counts, const unsigned char *available, Py_ssize_t cells) {
    for (Py_ssize_t k = 0; k < cells; k++) {
        const double *c = counts + 3 * k;
        if (available[k] && !(c[0] >= 0 && c[0] <= c[1] && c[0] <= c[2]))
            return 0;
    }
    return 1;
}

/* Whether the M2 scorer's running choice can never keep candidate b where a, tried before it, is
 * available: a has as many correct edits or more and as few proposed and gold ones or fewer, so
 * its keys are at least b's for any totals (each key is made of additions, one multiplication by
 * b^2 and one division that all keep that order, and a zero denominator means zero proposed and
 * gold, hence zero correct, on a's side), and on equal keys the earlier candidate stays. */
static int dominated(const double *b, const double *a) {
    return a[0] >= b[0] && a[1] <= b[1] && a[2] <= b[2];
}

static int pack_rows(int rule, const double *counts, const unsigned char *available, const int64_t *rank,
                     Py_ssize_t sentences, Py_ssize_t candidates, Table *table) {
    table->stride = ((1 + 3 * candidates) + 7) / 8 * 8;
    table->base = PyMem_Malloc((size_t)(sentences * table->stride + 8) * sizeof(double));
    Py_ssize_t *tried = PyMem_Malloc((size_t)candidates * sizeof(Py_ssize_t));
    if (table->base == NULL || tried == NULL) {
        PyMem_Free(tried);
        PyErr_NoMemory();
        return -1;
    }
    table->rows = (double *)(((uintptr_t)table->base + 63) & ~(uintptr_t)63);
    /* the M2 scorer's rows drop the candidates an earlier one dominates (they are never kept):
     * on CoNLL-2014 more than half the rows are then left with one candidate to try */
    int prune = rule == RULE_MAXMATCH && m2_counts(counts, available, sentences * candidates);
    for (Py_ssize_t row = 0; row < sentences; row++) {
        const int64_t *ranks = rank + row * candidates;
        const double *local = counts + row * candidates * 3;
        double *packed = table->rows + row * table->stride;
        Py_ssize_t size = trial_order(available + row * candidates, ranks, candidates, tried);
        if (size == 0) {
            PyMem_Free(tried);
            PyErr_SetString(PyExc_ValueError, "a row has no available candidate");
            return -1;
        }
        Py_ssize_t kept = 0;
        int uniform = 1;
        for (Py_ssize_t k = 0; k < size; k++) {
            const double *from = local + 3 * tried[k];
            int drop = 0;
            for (Py_ssize_t j = 0; prune && j < kept && !drop; j++)
                drop = dominated(from, packed + 1 + 3 * j);
            if (drop)
                continue;
            memcpy(packed + 1 + 3 * kept, from, 3 * sizeof(double));
            if (from[0] != packed[1] || from[1] != packed[2] || from[2] != packed[3])
                uniform = 0;
            kept++;
        }
        packed[0] = uniform ? 1.0 : (double)kept;
    }
    PyMem_Free(tried);
    return 0;
}

/* The totals after walking one sequence of rows (see the top of the file). */
static int walk(int rule, double beta, const Table *table, Py_ssize_t sentences, const int64_t *row_numbers,
                const unsigned char *row_mask, int mask_rows, Py_ssize_t length, double *totals) {
    enum { AHEAD = 8 };
    totals[0] = totals[1] = totals[2] = 0.0;
    for (Py_ssize_t i = 0; i < length; i++) {
        Py_ssize_t row;
        if (mask_rows) {
            row = ((row_mask[i] != 0) == (mask_rows > 0)) ? i : length + i;
        } else {
            row = (Py_ssize_t)row_numbers[i];
            if (i + AHEAD < length && row_numbers[i + AHEAD] >= 0 && row_numbers[i + AHEAD] < sentences)
                PREFETCH(table->rows + row_numbers[i + AHEAD] * table->stride);
        }
        if (row < 0 || row >= sentences)
            return -1;
        const double *packed = table->rows + row * table->stride;
        Py_ssize_t size = (Py_ssize_t)packed[0];
        const double *best = packed + 1;
        if (size > 1) {
            double best_keys[KEYS], keys[KEYS];
            row_keys(rule, totals, best, beta, best_keys);
            for (Py_ssize_t k = 1; k < size; k++) {
                row_keys(rule, totals, packed + 1 + 3 * k, beta, keys);
                if (greater(keys, best_keys)) {
                    best = packed + 1 + 3 * k;
                    memcpy(best_keys, keys, sizeof keys);
                }
            }
        }
        totals[0] += best[0];
        totals[1] += best[1];
        totals[2] += best[2];
    }
    return 0;
}

static int get_view(PyObject *obj, Py_buffer *view, Py_ssize_t bytes, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (view->len != bytes) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s must hold %zd bytes, not %zd", name, bytes, view->len);
        return -1;
    }
    return 0;
}

/* The counts (cells * 3 doubles), available (cells bytes) and rank (cells int64) buffers; on an
 * error none is held. */
static int candidate_views(PyObject *counts_obj, PyObject *available_obj, PyObject *rank_obj, Py_ssize_t cells,
                           Py_buffer *counts_view, Py_buffer *available_view, Py_buffer *rank_view) {
    if (get_view(counts_obj, counts_view, cells * 3 * (Py_ssize_t)sizeof(double), "counts") < 0)
        return -1;
    if (get_view(available_obj, available_view, cells, "available") < 0) {
        PyBuffer_Release(counts_view);
        return -1;
    }
    if (get_view(rank_obj, rank_view, cells * (Py_ssize_t)sizeof(int64_t), "rank") < 0) {
        PyBuffer_Release(counts_view);
        PyBuffer_Release(available_view);
        return -1;
    }
    return 0;
}

static PyObject *run(PyObject *module, PyObject *args) {
    int rule, mask_rows;
    double beta;
    Py_ssize_t sentences, candidates, sequences, length;
    PyObject *counts_obj, *available_obj, *rank_obj, *rows_obj;
    if (!PyArg_ParseTuple(args, "idOOOnnOnni:run", &rule, &beta, &counts_obj, &available_obj, &rank_obj,
                          &sentences, &candidates, &rows_obj, &sequences, &length, &mask_rows))
        return NULL;
    if ((rule != RULE_ERRANT && rule != RULE_MAXMATCH) || sentences < 0 || candidates < 1 || sequences < 0
            || length < 0 || (mask_rows != 0 && sentences != 2 * length)) {
        PyErr_SetString(PyExc_ValueError, "bad rule, shape or mask");
        return NULL;
    }
    Py_buffer counts_view, available_view, rank_view, rows_view;
    if (candidate_views(counts_obj, available_obj, rank_obj, sentences * candidates, &counts_view, &available_view,
                        &rank_view) < 0)
        return NULL;
    Py_ssize_t row_bytes = mask_rows ? 1 : (Py_ssize_t)sizeof(int64_t);
    if (get_view(rows_obj, &rows_view, sequences * length * row_bytes, "rows") < 0) {
        PyBuffer_Release(&counts_view);
        PyBuffer_Release(&available_view);
        PyBuffer_Release(&rank_view);
        return NULL;
    }
    PyObject *result = NULL;
    Table table = {NULL, NULL, 0};
    if (pack_rows(rule, (const double *)counts_view.buf, (const unsigned char *)available_view.buf,
                  (const int64_t *)rank_view.buf, sentences, candidates, &table) == 0)
        result = PyBytes_FromStringAndSize(NULL, sequences * 3 * (Py_ssize_t)sizeof(double));
    if (result != NULL) {
        double *out = (double *)PyBytes_AS_STRING(result);
        int bad_row = 0;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t n = 0; n < sequences && !bad_row; n++) {
            const int64_t *row_numbers = mask_rows ? NULL : (const int64_t *)rows_view.buf + n * length;
            const unsigned char *row_mask = mask_rows ? (const unsigned char *)rows_view.buf + n * length : NULL;
            bad_row = walk(rule, beta, &table, sentences, row_numbers, row_mask, mask_rows, length, out + 3 * n) < 0;
        }
        Py_END_ALLOW_THREADS
        if (bad_row) {
            Py_DECREF(result);
            result = NULL;
            PyErr_SetString(PyExc_ValueError, "a row number is out of range");
        }
    }
    PyMem_Free(table.base);
    PyBuffer_Release(&counts_view);
    PyBuffer_Release(&available_view);
    PyBuffer_Release(&rank_view);
    PyBuffer_Release(&rows_view);
    return result;
}

/* The running choice over the rows in order, each row's chosen candidate kept (see the top). Run
   without the GIL: its memory from PyMem_RawMalloc (PyMem_Malloc needs the GIL: a crash from Python 3.12). */
static int corpus_walk(int rule, double beta, const double *counts, const unsigned char *available,
                       const int64_t *rank, Py_ssize_t sentences, Py_ssize_t candidates, double *totals,
                       int64_t *chosen) {
    Py_ssize_t *tried = PyMem_RawMalloc((size_t)candidates * sizeof(Py_ssize_t));
    if (tried == NULL)
        return -2;
    for (Py_ssize_t row = 0; row < sentences; row++) {
        const int64_t *ranks = rank + row * candidates;
        const double *local = counts + row * candidates * 3;
        Py_ssize_t size = trial_order(available + row * candidates, ranks, candidates, tried);
        if (size == 0) {
            PyMem_RawFree(tried);
            return -1;
        }
        Py_ssize_t best = tried[0];
        double best_keys[KEYS], keys[KEYS];
        row_keys(rule, totals, local + 3 * best, beta, best_keys);
        for (Py_ssize_t k = 1; k < size; k++) {
            row_keys(rule, totals, local + 3 * tried[k], beta, keys);
            if (greater(keys, best_keys)) {
                best = tried[k];
                memcpy(best_keys, keys, sizeof keys);
            }
        }
        chosen[row] = (int64_t)best;
        totals[0] += local[3 * best];
        totals[1] += local[3 * best + 1];
        totals[2] += local[3 * best + 2];
    }
    PyMem_RawFree(tried);
    return 0;
}

static PyObject *corpus(PyObject *module, PyObject *args) {
    int rule;
    double beta, start[3];
    Py_ssize_t sentences, candidates;
    PyObject *counts_obj, *available_obj, *rank_obj;
    if (!PyArg_ParseTuple(args, "idOOOnn(ddd):corpus", &rule, &beta, &counts_obj, &available_obj, &rank_obj,
                          &sentences, &candidates, &start[0], &start[1], &start[2]))
        return NULL;
    if ((rule != RULE_ERRANT && rule != RULE_MAXMATCH) || sentences < 0 || candidates < 1) {
        PyErr_SetString(PyExc_ValueError, "bad rule or shape");
        return NULL;
    }
    Py_buffer counts_view, available_view, rank_view;
    if (candidate_views(counts_obj, available_obj, rank_obj, sentences * candidates, &counts_view, &available_view,
                        &rank_view) < 0)
        return NULL;
    PyObject *chosen = PyBytes_FromStringAndSize(NULL, sentences * (Py_ssize_t)sizeof(int64_t));
    PyObject *result = NULL;
    if (chosen != NULL) {
        double totals[3] = {start[0], start[1], start[2]};
        int64_t *chosen_rows = (int64_t *)PyBytes_AS_STRING(chosen);
        int status;
        Py_BEGIN_ALLOW_THREADS
        status = corpus_walk(rule, beta, (const double *)counts_view.buf, (const unsigned char *)available_view.buf,
                             (const int64_t *)rank_view.buf, sentences, candidates, totals, chosen_rows);
        Py_END_ALLOW_THREADS
        if (status == -2)
            PyErr_NoMemory();
        else if (status < 0)
            PyErr_SetString(PyExc_ValueError, "a row has no available candidate");
        else
            result = Py_BuildValue("(Oy#)", chosen, (const char *)totals, (Py_ssize_t)sizeof totals);
        Py_DECREF(chosen);
    }
    PyBuffer_Release(&counts_view);
    PyBuffer_Release(&available_view);
    PyBuffer_Release(&rank_view);
    return result;
}

static PyObject *py_ten_thousandths(PyObject *module, PyObject *args) {
    double f;
    if (!PyArg_ParseTuple(args, "d:ten_thousandths", &f))
        return NULL;
    if (!isfinite(f) || fabs(f) > 1e11) {
        PyErr_SetString(PyExc_ValueError, "ten_thousandths needs a finite value of at most 1e11");
        return NULL;
    }
    return PyFloat_FromDouble(ten_thousandths(f));
}

static PyMethodDef module_methods[] = {
    {"ten_thousandths", py_ten_thousandths, METH_VARARGS,
     "ten_thousandths(f) -> round(f, 4) * 10^4 as Python rounds, as a float (for the tests)"},
    {"run", run, METH_VARARGS,
     "run(rule, beta, counts, available, rank, R, P, rows, N, L, mask_rows) -> bytes of N x 3 doubles:\n"
     "the totals of the running-F choice of every sequence (rule 0 ERRANT, 1 MaxMatch)"},
    {"corpus", corpus, METH_VARARGS,
     "corpus(rule, beta, counts, available, rank, R, P, (s0, s1, s2)) -> (bytes of R int64 chosen candidates,\n"
     "bytes of 3 doubles: the totals): the running-F choice over the rows in their order"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "gecmetrics.core._running",
    "Compiled running-F choice over many sequences (optional; fscore.RunningChoice.run is the reference).",
    -1, module_methods,
};

PyMODINIT_FUNC PyInit__running(void) { return PyModule_Create(&module_definition); }
