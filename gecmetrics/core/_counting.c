/* Optional compiled inner loops of the counting core (gecmetrics/ngrams.py).
 *
 * The NumPy implementation in ngrams.py and aggregate.py is the reference; this module does
 * the same work without an interpreter or a sort per n-gram order, and the test suite checks
 * that both give the same statistics. Nothing here knows about a metric but two loops named
 * for theirs: gec-ranking's draws (GLEU+ -f) and GREEN's region sums.
 *
 *   WordIds().encode(lines)               str.split() words -> ids in order of first sight (kept
 *                                         across calls), flattened, without a str per token
 *   NgramIds(max_order).count(ids, lens)  exact n-gram ids (a hash map per order, kept across
 *                                         calls) and per-line sorted (id, count) rows
 *   python2_draws(iterations, D, R[, first])  gec-ranking's reference draws: Python's Mersenne
 *                                         Twister seeded with j * 101, int(random() * R), for
 *                                         iterations j = first .. first + iterations - 1
 *   python2_sampled_sums(stats, D, R, K, iterations, first)  the sums those draws select from
 *                                         (D, R, K) int32/int64 statistics, without the draws
 *   region_sums(sigma, rho, place, eta, edges)  GREEN's hypothesis-dependent region counts per
 *                                         sentence (the NumPy reference: metrics/green/green.py)
 *
 * Arrays cross the boundary as bytes of native int64, read with np.frombuffer.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* ---- growable int64 buffer ------------------------------------------------------------ */

typedef struct {
    int64_t *data;
    Py_ssize_t size;
    Py_ssize_t capacity;
} Buffer;

static int buffer_reserve(Buffer *b, Py_ssize_t extra) {
    if (b->size + extra <= b->capacity)
        return 0;
    Py_ssize_t capacity = b->capacity ? b->capacity : 1024;
    while (capacity < b->size + extra)
        capacity *= 2;
    int64_t *data = PyMem_Realloc(b->data, (size_t)capacity * sizeof(int64_t));
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = data;
    b->capacity = capacity;
    return 0;
}

static PyObject *buffer_to_bytes(const int64_t *data, Py_ssize_t size) {
    return PyBytes_FromStringAndSize((const char *)data, size * (Py_ssize_t)sizeof(int64_t));
}

/* A read-only view of a C-contiguous buffer of int64 (e.g. a NumPy int64 array). */
static int get_int64_view(PyObject *obj, Py_buffer *view, const char *name) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (view->itemsize != 8 || view->format == NULL || strchr("qlQL", view->format[0]) == NULL
        || view->format[1] != '\0') {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "%s must be a contiguous int64 array", name);
        return -1;
    }
    return 0;
}

/* Two int64 array arguments (PyArg format "OO:name"), named in errors; on success the caller
 * holds both views and releases them. */
static int get_two_int64_views(PyObject *args, const char *format, Py_buffer *first, const char *first_name,
                               Py_buffer *second, const char *second_name) {
    PyObject *first_obj, *second_obj;
    if (!PyArg_ParseTuple(args, format, &first_obj, &second_obj))
        return -1;
    if (get_int64_view(first_obj, first, first_name) < 0)
        return -1;
    if (get_int64_view(second_obj, second, second_name) < 0) {
        PyBuffer_Release(first);
        return -1;
    }
    return 0;
}

/* ---- exact n-gram ids: one open-addressing map per order ---------------------------------- */

/* An n-gram of order n >= 2 is the pair (id of its first n-1 units, id of its last unit),
 * packed into 64 bits; the map gives each distinct pair the next id, in order of first sight. */
typedef struct {
    uint64_t key;
    int64_t value; /* id + 1; 0 marks an empty slot */
} Slot;

typedef struct {
    Slot *slots;
    size_t mask; /* capacity - 1 (a power of two) */
    size_t size;
} IdMap;

static inline size_t mix(uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    key *= 0xc4ceb9fe1a85ec53ULL;
    key ^= key >> 33;
    return (size_t)key;
}

static int idmap_init(IdMap *m, size_t capacity) {
    m->slots = PyMem_Calloc(capacity, sizeof(Slot));
    m->mask = capacity - 1;
    m->size = 0;
    if (m->slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void idmap_free(IdMap *m) {
    PyMem_Free(m->slots);
    m->slots = NULL;
}

static int idmap_grow(IdMap *m) {
    IdMap bigger;
    if (idmap_init(&bigger, (m->mask + 1) * 2) < 0)
        return -1;
    for (size_t i = 0; i <= m->mask; i++) {
        if (m->slots[i].value == 0)
            continue;
        size_t slot = mix(m->slots[i].key) & bigger.mask;
        while (bigger.slots[slot].value != 0)
            slot = (slot + 1) & bigger.mask;
        bigger.slots[slot] = m->slots[i];
    }
    bigger.size = m->size;
    idmap_free(m);
    *m = bigger;
    return 0;
}

/* The id of key, added with the next id if new; -1 on memory error. */
static inline int64_t idmap_id(IdMap *m, uint64_t key) {
    size_t slot = mix(key) & m->mask;
    while (m->slots[slot].value != 0) {
        if (m->slots[slot].key == key)
            return m->slots[slot].value - 1;
        slot = (slot + 1) & m->mask;
    }
    if (2 * (m->size + 1) > m->mask + 1) {
        if (idmap_grow(m) < 0)
            return -1;
        slot = mix(key) & m->mask;
        while (m->slots[slot].value != 0)
            slot = (slot + 1) & m->mask;
    }
    m->slots[slot].key = key;
    m->slots[slot].value = (int64_t)++m->size;
    return (int64_t)m->size - 1;
}

/* ---- words -> ids ----------------------------------------------------------------------- */

/* Words get ids in order of first sight, kept across calls. A line is split as str.split() splits
 * it (runs of Py_UNICODE_ISSPACE) without making a str of each token: a token is hashed and
 * compared by its code points where it lies in the line (a str of the same code points in a line
 * of another kind, ASCII or UCS-2, is the same word), and only a new word is kept as a str. */
typedef struct {
    uint64_t hash;
    int64_t value; /* id + 1; 0 marks an empty slot */
} WordSlot;

typedef struct {
    PyObject_HEAD
    WordSlot *slots;
    size_t mask;
    PyObject **words; /* words[id], owned */
    Py_ssize_t size, allocated;
} WordIds;

static inline uint64_t token_hash(int kind, const void *data, Py_ssize_t start, Py_ssize_t end) {
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a over the code points */
    for (Py_ssize_t i = start; i < end; i++) {
        h ^= (uint64_t)PyUnicode_READ(kind, data, i);
        h *= 0x100000001b3ULL;
    }
    return h ^ (h >> 29);
}

static int same_token(PyObject *word, int kind, const void *data, Py_ssize_t start, Py_ssize_t length) {
    if (PyUnicode_GET_LENGTH(word) != length)
        return 0;
    int word_kind = PyUnicode_KIND(word);
    const void *word_data = PyUnicode_DATA(word);
    if (word_kind == kind)
        return memcmp(word_data, (const char *)data + start * kind, (size_t)(length * kind)) == 0;
    for (Py_ssize_t i = 0; i < length; i++)
        if (PyUnicode_READ(word_kind, word_data, i) != PyUnicode_READ(kind, data, start + i))
            return 0;
    return 1;
}

static int words_grow(WordIds *self) {
    size_t capacity = self->slots == NULL ? 1024 : (self->mask + 1) * 2;
    WordSlot *slots = PyMem_Calloc(capacity, sizeof(WordSlot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; self->slots != NULL && i <= self->mask; i++) {
        if (self->slots[i].value == 0)
            continue;
        size_t at = (size_t)mix(self->slots[i].hash) & (capacity - 1);
        while (slots[at].value != 0)
            at = (at + 1) & (capacity - 1);
        slots[at] = self->slots[i];
    }
    PyMem_Free(self->slots);
    self->slots = slots;
    self->mask = capacity - 1;
    return 0;
}

/* The id of line[start:end], a new word getting the next id; -1 with an exception set. */
static int64_t word_id(WordIds *self, PyObject *line, int kind, const void *data, Py_ssize_t start, Py_ssize_t end) {
    if (self->slots == NULL || 2 * (size_t)(self->size + 1) > self->mask + 1)
        if (words_grow(self) < 0)
            return -1;
    uint64_t hash = token_hash(kind, data, start, end);
    size_t at = (size_t)mix(hash) & self->mask;
    for (; self->slots[at].value != 0; at = (at + 1) & self->mask)
        if (self->slots[at].hash == hash
            && same_token(self->words[self->slots[at].value - 1], kind, data, start, end - start))
            return self->slots[at].value - 1;
    if (self->size == self->allocated) {
        Py_ssize_t more = self->allocated ? 2 * self->allocated : 1024;
        PyObject **words = PyMem_Realloc(self->words, (size_t)more * sizeof(PyObject *));
        if (words == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        self->words = words;
        self->allocated = more;
    }
    PyObject *word = PyUnicode_Substring(line, start, end);
    if (word == NULL)
        return -1;
    self->words[self->size] = word;
    self->slots[at].hash = hash;
    self->slots[at].value = ++self->size;
    return self->size - 1;
}

/* encode(lines) -> (ids, lengths) as int64 bytes: every line's words' ids, flattened, and the
 * number of words of each line. */
static PyObject *WordIds_encode(WordIds *self, PyObject *args) {
    PyObject *lines;
    if (!PyArg_ParseTuple(args, "O!:encode", &PyList_Type, &lines))
        return NULL;
    Py_ssize_t n_lines = PyList_GET_SIZE(lines);
    Buffer ids = {0}, lengths = {0};
    PyObject *result = NULL;
    if (buffer_reserve(&lengths, n_lines) < 0)
        goto done;
    for (Py_ssize_t d = 0; d < n_lines; d++) {
        PyObject *line = PyList_GET_ITEM(lines, d);
        if (!PyUnicode_Check(line)) {
            PyErr_SetString(PyExc_TypeError, "lines must be str");
            goto done;
        }
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_READY(line) < 0) /* (a legacy string made by an old C API) */
            goto done;
#endif
        int kind = PyUnicode_KIND(line);
        const void *data = PyUnicode_DATA(line);
        Py_ssize_t length = PyUnicode_GET_LENGTH(line), i = 0, words = 0;
        if (buffer_reserve(&ids, length / 2 + 1) < 0) /* (at most one word in two code points) */
            goto done;
        while (i < length) {
            while (i < length && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
                i++;
            if (i == length)
                break;
            Py_ssize_t start = i;
            while (i < length && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
                i++;
            int64_t id = word_id(self, line, kind, data, start, i);
            if (id < 0)
                goto done;
            ids.data[ids.size++] = id;
            words++;
        }
        lengths.data[lengths.size++] = words;
    }
    {
        PyObject *flat = buffer_to_bytes(ids.data, ids.size);
        PyObject *lens = buffer_to_bytes(lengths.data, lengths.size);
        if (flat != NULL && lens != NULL)
            result = PyTuple_Pack(2, flat, lens);
        Py_XDECREF(flat);
        Py_XDECREF(lens);
    }
done:
    PyMem_Free(ids.data);
    PyMem_Free(lengths.data);
    return result;
}

static Py_ssize_t WordIds_length(WordIds *self) {
    return self->size;
}

static void WordIds_dealloc(WordIds *self) {
    for (Py_ssize_t i = 0; i < self->size; i++)
        Py_DECREF(self->words[i]);
    PyMem_Free(self->words);
    PyMem_Free(self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef WordIds_methods[] = {
    {"encode", (PyCFunction)WordIds_encode, METH_VARARGS,
     "encode(lines) -> (ids, lengths) as int64 bytes: str.split() words, new ones getting the next id"},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods WordIds_sequence = {.sq_length = (lenfunc)WordIds_length};

static PyTypeObject WordIdsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gecmetrics.core._counting.WordIds",
    .tp_doc = "Word ids in order of first sight, shared by every call of encode(); len() is the words known.",
    .tp_basicsize = sizeof(WordIds),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)WordIds_dealloc,
    .tp_methods = WordIds_methods,
    .tp_as_sequence = &WordIds_sequence,
};

static int bit_length(uint64_t value) {
    int bits = 0;
    while (value) {
        bits++;
        value >>= 1;
    }
    return bits;
}

static inline void insertion_sort(int64_t *v, Py_ssize_t n) {
    for (Py_ssize_t i = 1; i < n; i++) {
        int64_t x = v[i];
        Py_ssize_t j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static void heap_sift(int64_t *v, Py_ssize_t root, Py_ssize_t n) {
    int64_t x = v[root];
    for (Py_ssize_t child; (child = 2 * root + 1) < n; root = child) {
        if (child + 1 < n && v[child + 1] > v[child])
            child++;
        if (v[child] <= x)
            break;
        v[root] = v[child];
    }
    v[root] = x;
}

/* Introsort: quicksort (median of three) down to short runs, heapsort if it degenerates. */
static void sort_int64(int64_t *v, Py_ssize_t n, int depth) {
    while (n > 24) {
        if (depth-- == 0) {
            for (Py_ssize_t i = n / 2 - 1; i >= 0; i--)
                heap_sift(v, i, n);
            for (Py_ssize_t i = n - 1; i > 0; i--) {
                int64_t t = v[0];
                v[0] = v[i];
                v[i] = t;
                heap_sift(v, 0, i);
            }
            return;
        }
        int64_t a = v[0], b = v[n / 2], c = v[n - 1];
        int64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        Py_ssize_t i = 0, j = n - 1;
        for (;;) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i >= j)
                break;
            int64_t t = v[i];
            v[i] = v[j];
            v[j] = t;
            i++;
            j--;
        }
        /* [0, j] <= pivot <= [j + 1, n): recurse into the smaller part, loop on the larger */
        if (j + 1 < n - (j + 1)) {
            sort_int64(v, j + 1, depth);
            v += j + 1;
            n -= j + 1;
        } else {
            sort_int64(v + j + 1, n - (j + 1), depth);
            n = j + 1;
        }
    }
    insertion_sort(v, n);
}

#define RADIX_BITS 11
#define RADIX_BUCKETS (1 << RADIX_BITS)
#define RADIX_FROM 4096 /* fewer ids: each line sorted alone (a pass's buckets would cost more) */

/* Each line's ids in increasing order (line d holds counts[d] ids, the lines one after the other
 * in ids), the same order as sorting each line alone. Many ids are sorted all at once: an LSD
 * radix sort of the ids, RADIX_BITS a pass, that carries each id's line, then one stable pass
 * putting every id back in its line's range, where they arrive in increasing order. Linear in
 * the ids, where a sort per line cost most of the counting of short-unit (character) lines. */
static int sort_each_line(int64_t *ids, Py_ssize_t n_ids, const Py_ssize_t *counts, Py_ssize_t n_lines) {
    if (n_ids < RADIX_FROM) {
        for (Py_ssize_t d = 0, start = 0; d < n_lines; start += counts[d], d++)
            if (counts[d] > 1)
                sort_int64(ids + start, counts[d], 2 * bit_length((uint64_t)counts[d]));
        return 0;
    }
    int64_t *spare = PyMem_Malloc((size_t)n_ids * sizeof(int64_t)), largest = 0;
    uint32_t *line = PyMem_Malloc((size_t)n_ids * sizeof(uint32_t));
    uint32_t *spare_line = PyMem_Malloc((size_t)n_ids * sizeof(uint32_t));
    Py_ssize_t *cursor = PyMem_Malloc((size_t)(n_lines > RADIX_BUCKETS ? n_lines : RADIX_BUCKETS) * sizeof(Py_ssize_t));
    if (spare == NULL || line == NULL || spare_line == NULL || cursor == NULL) {
        PyMem_Free(spare);
        PyMem_Free(line);
        PyMem_Free(spare_line);
        PyMem_Free(cursor);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t d = 0, i = 0; d < n_lines; d++)
        for (Py_ssize_t k = 0; k < counts[d]; k++, i++) {
            line[i] = (uint32_t)d;
            if (ids[i] > largest)
                largest = ids[i];
        }
    int64_t *from = ids, *to = spare;
    uint32_t *from_line = line, *to_line = spare_line;
    for (int shift = 0; shift == 0 || (largest >> shift) != 0; shift += RADIX_BITS) {
        memset(cursor, 0, RADIX_BUCKETS * sizeof(Py_ssize_t));
        for (Py_ssize_t i = 0; i < n_ids; i++)
            cursor[(from[i] >> shift) & (RADIX_BUCKETS - 1)]++;
        for (Py_ssize_t b = 0, total = 0; b < RADIX_BUCKETS; b++) {
            Py_ssize_t here = cursor[b];
            cursor[b] = total;
            total += here;
        }
        for (Py_ssize_t i = 0; i < n_ids; i++) {
            Py_ssize_t at = cursor[(from[i] >> shift) & (RADIX_BUCKETS - 1)]++;
            to[at] = from[i];
            to_line[at] = from_line[i];
        }
        int64_t *t = from;
        from = to;
        to = t;
        uint32_t *u = from_line;
        from_line = to_line;
        to_line = u;
    }
    if (from == ids) { /* (an even number of passes: the sorted ids are back in place) */
        memcpy(spare, ids, (size_t)n_ids * sizeof(int64_t));
        from = spare;
    }
    for (Py_ssize_t d = 0, start = 0; d < n_lines; start += counts[d], d++)
        cursor[d] = start;
    for (Py_ssize_t i = 0; i < n_ids; i++)
        ids[cursor[from_line[i]]++] = from[i];
    PyMem_Free(spare);
    PyMem_Free(line);
    PyMem_Free(spare_line);
    PyMem_Free(cursor);
    return 0;
}

typedef struct {
    PyObject_HEAD
    int max_order;
    IdMap *maps; /* maps[k] for order k + 1, k >= 1 */
} NgramIds;

static void NgramIds_dealloc(NgramIds *self) {
    if (self->maps != NULL) {
        for (int k = 1; k < self->max_order; k++)
            idmap_free(&self->maps[k]);
        PyMem_Free(self->maps);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int NgramIds_init(NgramIds *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"max_order", NULL};
    int max_order;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i:NgramIds", names, &max_order))
        return -1;
    if (max_order < 1) {
        PyErr_SetString(PyExc_ValueError, "max_order must be >= 1");
        return -1;
    }
    if (self->maps != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "NgramIds is already initialized");
        return -1;
    }
    self->maps = PyMem_Calloc((size_t)max_order, sizeof(IdMap));
    if (self->maps == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->max_order = max_order;
    for (int k = 1; k < max_order; k++)
        if (idmap_init(&self->maps[k], 1024) < 0)
            return -1;
    return 0;
}

#define MAX_ID ((int64_t)0xffffffffLL)

/* count(unit_ids, lengths) -> [(grams, counts, rows)] per order 1..max_order.
 * unit_ids: all units of all lines, flattened; lengths: units per line. For each order,
 * line after line, the distinct n-gram ids of the line in increasing order with their
 * counts, and rows[d] = number of distinct n-grams of line d. */
static PyObject *NgramIds_count(NgramIds *self, PyObject *args) {
    Py_buffer units_view, lengths_view;
    if (get_two_int64_views(args, "OO:count", &units_view, "unit_ids", &lengths_view, "lengths") < 0)
        return NULL;
    const int64_t *units = units_view.buf, *lengths = lengths_view.buf;
    Py_ssize_t n_units = units_view.len / 8, n_lines = lengths_view.len / 8;
    PyObject *result = NULL;
    int64_t *current = NULL, *ids = NULL;
    Py_ssize_t *per_line = NULL;

    Py_ssize_t total = 0;
    for (Py_ssize_t d = 0; d < n_lines; d++) {
        if (lengths[d] < 0) {
            PyErr_SetString(PyExc_ValueError, "negative line length");
            goto done;
        }
        total += lengths[d];
    }
    if (total != n_units) {
        PyErr_SetString(PyExc_ValueError, "lengths do not add up to the number of units");
        goto done;
    }
    int64_t max_unit = 0;
    for (Py_ssize_t i = 0; i < n_units; i++) {
        if (units[i] > max_unit)
            max_unit = units[i];
        if (units[i] < 0 || units[i] > MAX_ID) {
            PyErr_SetString(PyExc_OverflowError, "unit ids must be in [0, 2**32)");
            goto done;
        }
    }
    current = PyMem_Malloc((size_t)(n_units ? n_units : 1) * sizeof(int64_t));
    ids = PyMem_Malloc((size_t)(n_units ? n_units : 1) * sizeof(int64_t));
    per_line = PyMem_Malloc((size_t)(n_lines ? n_lines : 1) * sizeof(Py_ssize_t));
    if (current == NULL || ids == NULL || per_line == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(current, units, (size_t)n_units * sizeof(int64_t));
    result = PyList_New(0);
    if (result == NULL)
        goto done;

    for (int k = 0; k < self->max_order; k++) {
        int order = k + 1;
        /* the ids of this order's n-grams, in place in `current` (the (order-1)-gram at i
         * becomes the order-gram at i), copied line after line to `ids` */
        Py_ssize_t n_ids = 0, start = 0;
        for (Py_ssize_t d = 0; d < n_lines; d++) {
            Py_ssize_t n = lengths[d] - order + 1; /* n-grams of this order in the line */
            int64_t *line = current + start;
            for (Py_ssize_t i = 0; i < n; i++) {
                if (order > 1) {
                    if (line[i] > MAX_ID) {
                        PyErr_Format(PyExc_OverflowError,
                                     "too many distinct %d-grams for exact 32-bit ids", order - 1);
                        goto fail;
                    }
                    uint64_t pair = ((uint64_t)line[i] << 32) | (uint64_t)units[start + i + order - 1];
                    int64_t id = idmap_id(&self->maps[k], pair);
                    if (id < 0)
                        goto fail;
                    line[i] = id;
                }
                ids[n_ids++] = line[i];
            }
            start += lengths[d];
        }
        /* each line's ids in increasing order: the rows of a line are its runs */
        for (Py_ssize_t d = 0; d < n_lines; d++)
            per_line[d] = lengths[d] >= order ? lengths[d] - order + 1 : 0;
        if (sort_each_line(ids, n_ids, per_line, n_lines) < 0)
            goto fail;
        /* runs of equal keys: one row (id, count) each; rows[d] counts line d's rows */
        PyObject *g = PyBytes_FromStringAndSize(NULL, n_ids * 8);
        PyObject *c = PyBytes_FromStringAndSize(NULL, n_ids * 8);
        PyObject *r = PyBytes_FromStringAndSize(NULL, n_lines * 8);
        if (g == NULL || c == NULL || r == NULL) {
            Py_XDECREF(g);
            Py_XDECREF(c);
            Py_XDECREF(r);
            goto fail;
        }
        int64_t *grams = (int64_t *)PyBytes_AS_STRING(g), *counts = (int64_t *)PyBytes_AS_STRING(c);
        int64_t *rows = (int64_t *)PyBytes_AS_STRING(r);
        Py_ssize_t distinct = 0;
        start = 0;
        for (Py_ssize_t d = 0; d < n_lines; d++) {
            Py_ssize_t n = lengths[d] - order + 1, first = distinct;
            for (Py_ssize_t i = start; i < start + n; i++) {
                if (distinct > first && ids[i] == grams[distinct - 1]) {
                    counts[distinct - 1]++;
                } else {
                    grams[distinct] = ids[i];
                    counts[distinct] = 1;
                    distinct++;
                }
            }
            rows[d] = distinct - first;
            if (n > 0)
                start += n;
        }
        PyObject *triple = NULL;
        if (_PyBytes_Resize(&g, distinct * 8) == 0 && _PyBytes_Resize(&c, distinct * 8) == 0)
            triple = PyTuple_Pack(3, g, c, r);
        Py_XDECREF(g);
        Py_XDECREF(c);
        Py_DECREF(r);
        if (triple == NULL || PyList_Append(result, triple) < 0) {
            Py_XDECREF(triple);
            goto fail;
        }
        Py_DECREF(triple);
    }
    goto done;
fail:
    Py_CLEAR(result);
done:
    PyMem_Free(current);
    PyMem_Free(ids);
    PyMem_Free(per_line);
    PyBuffer_Release(&units_view);
    PyBuffer_Release(&lengths_view);
    return result;
}

static PyMethodDef NgramIds_methods[] = {
    {"count", (PyCFunction)NgramIds_count, METH_VARARGS,
     "count(unit_ids, lengths) -> [(grams, counts, rows) as int64 bytes] for orders 1..max_order"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject NgramIdsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "gecmetrics.core._counting.NgramIds",
    .tp_doc = "Exact n-gram ids of orders 2..max_order, shared by every call of count().",
    .tp_basicsize = sizeof(NgramIds),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)NgramIds_init,
    .tp_dealloc = (destructor)NgramIds_dealloc,
    .tp_methods = NgramIds_methods,
};

/* ---- joins on sorted keys -------------------------------------------------------------------- */

/* positions(keys, queries) -> int64 bytes: for each query, its index in the sorted, distinct
 * keys, or -1. Sorted queries (the usual case: both are (sentence, n-gram) tables) are merged
 * in one forward pass; a query below its predecessor restarts by binary search. */
static PyObject *positions(PyObject *module, PyObject *args) {
    Py_buffer keys_view, queries_view;
    if (get_two_int64_views(args, "OO:positions", &keys_view, "keys", &queries_view, "queries") < 0)
        return NULL;
    const int64_t *keys = keys_view.buf, *queries = queries_view.buf;
    Py_ssize_t n_keys = keys_view.len / 8, n_queries = queries_view.len / 8;
    PyObject *out = PyBytes_FromStringAndSize(NULL, n_queries * 8);
    if (out != NULL) {
        int64_t *where = (int64_t *)PyBytes_AS_STRING(out);
        Py_ssize_t j = 0;
        for (Py_ssize_t i = 0; i < n_queries; i++) {
            int64_t q = queries[i];
            if (i > 0 && q < queries[i - 1]) {
                Py_ssize_t low = 0, high = n_keys; /* first key >= q */
                while (low < high) {
                    Py_ssize_t mid = low + (high - low) / 2;
                    if (keys[mid] < q)
                        low = mid + 1;
                    else
                        high = mid;
                }
                j = low;
            }
            while (j < n_keys && keys[j] < q)
                j++;
            where[i] = (j < n_keys && keys[j] == q) ? j : -1;
        }
    }
    PyBuffer_Release(&keys_view);
    PyBuffer_Release(&queries_view);
    return out;
}

/* ---- Python's Mersenne Twister (MT19937, seeded by init_by_array) ------------------------- */

enum { MT_N = 624, MT_M = 397 };

typedef struct {
    uint32_t state[MT_N];
    int index;
} Twister;

static void twister_fill(Twister *t) {
    static const uint32_t odd[2] = {0u, 0x9908b0dfu};
    uint32_t *s = t->state;
    int i;
    uint32_t y;
    for (i = 0; i < MT_N - MT_M; i++) {
        y = (s[i] & 0x80000000u) | (s[i + 1] & 0x7fffffffu);
        s[i] = s[i + MT_M] ^ (y >> 1) ^ odd[y & 1u];
    }
    for (; i < MT_N - 1; i++) {
        y = (s[i] & 0x80000000u) | (s[i + 1] & 0x7fffffffu);
        s[i] = s[i + MT_M - MT_N] ^ (y >> 1) ^ odd[y & 1u];
    }
    y = (s[MT_N - 1] & 0x80000000u) | (s[0] & 0x7fffffffu);
    s[MT_N - 1] = s[MT_M - 1] ^ (y >> 1) ^ odd[y & 1u];
    t->index = 0;
}

static inline uint32_t twister_next(Twister *t) {
    if (t->index >= MT_N)
        twister_fill(t);
    uint32_t y = t->state[t->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* random.random(): 53 random bits from two 32-bit outputs. */
static inline double twister_random(Twister *t) {
    uint32_t a = twister_next(t) >> 5, b = twister_next(t) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.seed(n) for an integer n >= 0: the key is n's 32-bit words, least significant first
 * (one word 0 for n = 0); `base` is the state after the fixed initial seeding. */
static void twister_seed(Twister *t, const uint32_t *base, uint64_t n) {
    uint32_t key[2];
    int key_length = 0;
    do {
        key[key_length++] = (uint32_t)(n & 0xffffffffu);
        n >>= 32;
    } while (n != 0);
    uint32_t *s = t->state;
    memcpy(s, base, sizeof(t->state));
    int i = 1, j = 0;
    for (int k = MT_N; k > 0; k--) {
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            s[0] = s[MT_N - 1];
            i = 1;
        }
        if (j >= key_length)
            j = 0;
    }
    for (int k = MT_N - 1; k > 0; k--) {
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            s[0] = s[MT_N - 1];
            i = 1;
        }
    }
    s[0] = 0x80000000u;
    t->index = MT_N;
}

static PyObject *python2_draws(PyObject *module, PyObject *args) {
    Py_ssize_t iterations, sentences, references, first = 0;
    if (!PyArg_ParseTuple(args, "nnn|n:python2_draws", &iterations, &sentences, &references, &first))
        return NULL;
    if (iterations < 0 || sentences < 0 || references < 1 || first < 0) {
        PyErr_SetString(PyExc_ValueError, "need iterations >= 0, sentences >= 0, references >= 1, first >= 0");
        return NULL;
    }
    if (iterations > 0 && sentences > PY_SSIZE_T_MAX / 8 / iterations)
        return PyErr_NoMemory();
    PyObject *out = PyBytes_FromStringAndSize(NULL, iterations * sentences * 8);
    if (out == NULL)
        return NULL;
    int64_t *draws = (int64_t *)PyBytes_AS_STRING(out);
    uint32_t base[MT_N];
    base[0] = 19650218u;
    for (int i = 1; i < MT_N; i++)
        base[i] = 1812433253u * (base[i - 1] ^ (base[i - 1] >> 30)) + (uint32_t)i;
    Twister twister;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t j = 0; j < iterations; j++) {
        twister_seed(&twister, base, (uint64_t)(first + j) * 101u);
        int64_t *row = draws + j * sentences;
        for (Py_ssize_t d = 0; d < sentences; d++)
            row[d] = (int64_t)(twister_random(&twister) * (double)references);
    }
    Py_END_ALLOW_THREADS
    return out;
}

/* Sums of the statistics rows gec-ranking's draws pick, without the draws: iteration j's
 * twister (seeded with j * 101) picks reference int(random() * R) of each sentence in order,
 * and that row is added to iteration j's sums. A group of iterations advances together, so
 * each sentence's rows are read once per group rather than once per iteration. */
enum { SUM_GROUP = 16 };

enum { SUM_TILE = 512 };

/* sum += rows[d * stride + picked[d] * width .. + width] for d < count (restrict: no aliasing,
 * so the compiler keeps the additions in vector registers). */
#define ADD_PICKED_ROWS(TYPE)                                                                   \
    static void add_picked_rows_##TYPE(int64_t *restrict sum, const TYPE *restrict rows,       \
                                       const int32_t *restrict picked, Py_ssize_t count,        \
                                       Py_ssize_t stride, Py_ssize_t width) {                   \
        for (Py_ssize_t d = 0; d < count; d++) {                                                \
            const TYPE *restrict row = rows + d * stride + (Py_ssize_t)picked[d] * width;       \
            for (Py_ssize_t k = 0; k < width; k++)                                              \
                sum[k] += row[k];                                                               \
        }                                                                                       \
    }
ADD_PICKED_ROWS(int32_t)
ADD_PICKED_ROWS(int64_t)


#define SAMPLED_SUMS_LOOP(TYPE)                                                                 \
    for (Py_ssize_t start = 0; start < sentences; start += SUM_TILE) {                          \
        Py_ssize_t tile = sentences - start < SUM_TILE ? sentences - start : SUM_TILE;          \
        for (int g = 0; g < group; g++) {                                                       \
            int32_t *picked = picks + (Py_ssize_t)g * SUM_TILE;                                 \
            for (Py_ssize_t d = 0; d < tile; d++)                                               \
                picked[d] = (int32_t)(twister_random(&twisters[g]) * (double)references);       \
        }                                                                                       \
        for (int g = 0; g < group; g++) {                                                       \
            const int32_t *picked = picks + (Py_ssize_t)g * SUM_TILE;                           \
            add_picked_rows_##TYPE(sums + (Py_ssize_t)g * width,                                \
                                   (const TYPE *)stats + start * references * width, picked, tile, \
                                   references * width, width);                                  \
        }                                                                                       \
    }

static PyObject *python2_sampled_sums(PyObject *module, PyObject *args) {
    PyObject *obj;
    Py_ssize_t sentences, references, width, iterations, first;
    if (!PyArg_ParseTuple(args, "Onnnnn:python2_sampled_sums", &obj, &sentences, &references, &width,
                          &iterations, &first))
        return NULL;
    if (sentences < 0 || references < 1 || width < 1 || iterations < 0 || first < 0) {
        PyErr_SetString(PyExc_ValueError, "need sentences >= 0, references >= 1, width >= 1, iterations >= 0, first >= 0");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    int wide = view.itemsize == 8 && view.format != NULL && strchr("qlQL", view.format[0]) != NULL;
    int narrow = view.itemsize == 4 && view.format != NULL && strchr("il", view.format[0]) != NULL;
    if ((!wide && !narrow) || view.format[1] != '\0'
        || (references * width > 0 && sentences > PY_SSIZE_T_MAX / references / width / 8)
        || view.len != sentences * references * width * view.itemsize) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_TypeError, "stats must be a contiguous int32 or int64 array of sentences x references x width");
        return NULL;
    }
    if (iterations > 0 && width > PY_SSIZE_T_MAX / 8 / iterations) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, iterations * width * 8);
    Twister *twisters = PyMem_Malloc(SUM_GROUP * sizeof(Twister));
    int64_t *sums = PyMem_Malloc((size_t)(SUM_GROUP * width) * sizeof(int64_t));
    int32_t *picks = PyMem_Malloc(SUM_GROUP * SUM_TILE * sizeof(int32_t));
    if (out == NULL || twisters == NULL || sums == NULL || picks == NULL) {
        PyMem_Free(picks);
        Py_XDECREF(out);
        PyMem_Free(twisters);
        PyMem_Free(sums);
        PyBuffer_Release(&view);
        return out == NULL ? NULL : PyErr_NoMemory();
    }
    int64_t *result = (int64_t *)PyBytes_AS_STRING(out);
    const void *stats = view.buf;
    uint32_t base[MT_N];
    base[0] = 19650218u;
    for (int i = 1; i < MT_N; i++)
        base[i] = 1812433253u * (base[i - 1] ^ (base[i - 1] >> 30)) + (uint32_t)i;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t j = 0; j < iterations; j += SUM_GROUP) {
        int group = iterations - j < SUM_GROUP ? (int)(iterations - j) : SUM_GROUP;
        for (int g = 0; g < group; g++)
            twister_seed(&twisters[g], base, (uint64_t)(first + j + g) * 101u);
        memset(sums, 0, (size_t)(group * width) * sizeof(int64_t));
        if (wide) {
            SAMPLED_SUMS_LOOP(int64_t)
        } else {
            SAMPLED_SUMS_LOOP(int32_t)
        }
        memcpy(result + j * width, sums, (size_t)(group * width) * sizeof(int64_t));
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(twisters);
    PyMem_Free(sums);
    PyMem_Free(picks);
    PyBuffer_Release(&view);
    return out;
}

/* ---- the reference side: sides' lines merged row by row ----------------------------------- */

/* Whether range i of `edges` (edges[i] to edges[i + 1], one of n_ranges) lies within [0, limit]:
 * a line of the line tables, a row of the reference-side keys. */
static inline int range_within(const int64_t *edges, Py_ssize_t n_ranges, Py_ssize_t limit, int64_t i) {
    return i >= 0 && i < n_ranges && edges[i] >= 0 && edges[i] <= edges[i + 1] && edges[i + 1] <= limit;
}

/* merge_sides(starts, grams, counts, lines, sides) -> (keys, edges, [(places, side_counts)] per side).
 * One order's line tables (line l's rows are grams[starts[l]:starts[l + 1]], ids increasing, with
 * their counts) and `sides` texts of D rows each (lines[s * D + d]: side s's line at row d). Per
 * row, the union of the sides' n-gram ids in increasing order: keys[k] = d << 32 | id, row d's keys
 * from edges[d] to edges[d + 1]; for side s, each of its rows' place among the keys and its count
 * (row after row). What gathering each side's table, sorting their keys together and looking each
 * side up in them gives, in one pass over the sides' rows. */
static PyObject *merge_sides(PyObject *module, PyObject *args) {
    PyObject *objects[4];
    Py_ssize_t n_sides;
    if (!PyArg_ParseTuple(args, "OOOOn:merge_sides", &objects[0], &objects[1], &objects[2], &objects[3], &n_sides))
        return NULL;
    static const char *names[4] = {"starts", "grams", "counts", "lines"};
    Py_buffer views[4];
    int held = 0;
    PyObject *result = NULL, *keys_obj = NULL, *edges_obj = NULL, *per_side = NULL;
    Py_ssize_t *cursor = NULL, *end = NULL, *written = NULL;
    int64_t **places = NULL, **side_counts = NULL;
    for (; held < 4; held++)
        if (get_int64_view(objects[held], &views[held], names[held]) < 0)
            goto done;
    const int64_t *starts = views[0].buf, *grams = views[1].buf, *counts = views[2].buf, *lines = views[3].buf;
    Py_ssize_t n_lines = views[0].len / 8 - 1, n_grams = views[1].len / 8, n_cells = views[3].len / 8;
    if (n_lines < 0 || views[2].len != views[1].len || n_sides < 1 || n_cells % n_sides != 0) {
        PyErr_SetString(PyExc_ValueError, "merge_sides: starts of L + 1 lines, grams and counts alike, lines of sides x D");
        goto done;
    }
    Py_ssize_t rows = n_cells / n_sides;
    if (rows > 0x7fffffffLL) {
        PyErr_SetString(PyExc_OverflowError, "too many sentences for packed (sentence, n-gram) keys");
        goto done;
    }
    cursor = PyMem_Malloc((size_t)n_sides * sizeof(Py_ssize_t));
    end = PyMem_Calloc((size_t)n_sides, sizeof(Py_ssize_t)); /* (each side's rows first, then a row's end) */
    written = PyMem_Calloc((size_t)n_sides, sizeof(Py_ssize_t));
    places = PyMem_Calloc((size_t)n_sides, sizeof(int64_t *));
    side_counts = PyMem_Calloc((size_t)n_sides, sizeof(int64_t *));
    if (cursor == NULL || end == NULL || written == NULL || places == NULL || side_counts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* every line id in range and every side's rows within the tables, counted per side */
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < n_cells; i++) {
        int64_t l = lines[i];
        if (!range_within(starts, n_lines, n_grams, l)) {
            PyErr_SetString(PyExc_ValueError, "merge_sides: a line id outside the line tables");
            goto done;
        }
        end[i / rows] += starts[l + 1] - starts[l];
        total += starts[l + 1] - starts[l];
    }
    keys_obj = PyBytes_FromStringAndSize(NULL, (total ? total : 1) * 8);
    edges_obj = PyBytes_FromStringAndSize(NULL, (rows + 1) * 8);
    per_side = PyList_New(n_sides);
    if (keys_obj == NULL || edges_obj == NULL || per_side == NULL)
        goto done;
    for (Py_ssize_t s = 0; s < n_sides; s++) {
        Py_ssize_t size = end[s];
        PyObject *p = PyBytes_FromStringAndSize(NULL, size * 8), *c = PyBytes_FromStringAndSize(NULL, size * 8);
        PyObject *pair = (p == NULL || c == NULL) ? NULL : PyTuple_Pack(2, p, c);
        Py_XDECREF(p);
        Py_XDECREF(c);
        if (pair == NULL)
            goto done;
        PyList_SET_ITEM(per_side, s, pair);
        places[s] = (int64_t *)PyBytes_AS_STRING(p);
        side_counts[s] = (int64_t *)PyBytes_AS_STRING(c);
    }
    int64_t *keys = (int64_t *)PyBytes_AS_STRING(keys_obj), *edges = (int64_t *)PyBytes_AS_STRING(edges_obj);
    Py_ssize_t k = 0;
    for (Py_ssize_t d = 0; d < rows; d++) {
        edges[d] = k;
        for (Py_ssize_t s = 0; s < n_sides; s++) {
            cursor[s] = starts[lines[s * rows + d]];
            end[s] = starts[lines[s * rows + d] + 1];
        }
        for (;;) {
            int64_t least = -1;
            for (Py_ssize_t s = 0; s < n_sides; s++)
                if (cursor[s] < end[s] && (least < 0 || grams[cursor[s]] < least))
                    least = grams[cursor[s]];
            if (least < 0)
                break;
            for (Py_ssize_t s = 0; s < n_sides; s++)
                if (cursor[s] < end[s] && grams[cursor[s]] == least) {
                    places[s][written[s]] = k;
                    side_counts[s][written[s]++] = counts[cursor[s]++];
                }
            keys[k++] = ((int64_t)d << 32) | least;
        }
    }
    edges[rows] = k;
    if (_PyBytes_Resize(&keys_obj, k * 8) < 0)
        goto done;
    result = PyTuple_Pack(3, keys_obj, edges_obj, per_side);
done:
    Py_XDECREF(keys_obj);
    Py_XDECREF(edges_obj);
    Py_XDECREF(per_side);
    PyMem_Free(cursor);
    PyMem_Free(end);
    PyMem_Free(written);
    PyMem_Free(places);
    PyMem_Free(side_counts);
    while (held > 0)
        PyBuffer_Release(&views[--held]);
    return result;
}

/* place_rows(starts, grams, counts, lines, chosen, keys, sigma, key_edges, key_rows)
 *     -> (places, sigma_rows, eta, sentence, edges).
 * A hypothesis of D sentences (lines[d]: its line at sentence d) placed on the reference-side keys
 * (keys[key_edges[g]:key_edges[g + 1]]: row g's packed keys, ids increasing; sentence d's row is
 * key_rows[d], or d where key_rows is None): for each chosen sentence (`chosen`, increasing), each
 * of its line's n-grams (one order's line tables, ids increasing) with its place among the keys
 * (-1: not there), the source count there (sigma[place], 0 where not there), its count and its
 * sentence; edges[d]: where sentence d's rows start (none for the others).
 * What gathering the chosen sentences' table and looking its keys up gives, in one merge. */
static PyObject *place_rows(PyObject *module, PyObject *args) {
    PyObject *objects[9];
    if (!PyArg_ParseTuple(args, "OOOOOOOOO:place_rows", &objects[0], &objects[1], &objects[2], &objects[3],
                          &objects[4], &objects[5], &objects[6], &objects[7], &objects[8]))
        return NULL;
    static const char *names[9] = {"starts", "grams", "counts", "lines", "chosen", "keys", "sigma", "key_edges",
                                   "key_rows"};
    int given = objects[8] != Py_None ? 9 : 8;
    Py_buffer views[9];
    int held = 0;
    PyObject *result = NULL, *outputs[5] = {NULL, NULL, NULL, NULL, NULL};
    for (; held < given; held++)
        if (get_int64_view(objects[held], &views[held], names[held]) < 0)
            goto done;
    const int64_t *starts = views[0].buf, *grams = views[1].buf, *counts = views[2].buf, *lines = views[3].buf;
    const int64_t *chosen = views[4].buf, *keys = views[5].buf, *sigma = views[6].buf, *key_edges = views[7].buf;
    const int64_t *key_rows = given == 9 ? views[8].buf : NULL;
    Py_ssize_t n_lines = views[0].len / 8 - 1, n_grams = views[1].len / 8, n_sentences = views[3].len / 8;
    Py_ssize_t n_chosen = views[4].len / 8, n_keys = views[5].len / 8, n_rows = views[7].len / 8 - 1;
    if (n_lines < 0 || n_rows < 0 || views[2].len != views[1].len || views[6].len != views[5].len
        || (key_rows && views[8].len != views[3].len)) {
        PyErr_SetString(PyExc_ValueError, "place_rows: mismatched table or row arrays");
        goto done;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < n_chosen; i++) {
        int64_t d = chosen[i];
        int64_t row = (d >= 0 && d < n_sentences) ? (key_rows ? key_rows[d] : d) : -1;
        int64_t l = (d >= 0 && d < n_sentences) ? lines[d] : -1;
        if ((i > 0 && d <= chosen[i - 1]) || !range_within(starts, n_lines, n_grams, l)
            || !range_within(key_edges, n_rows, n_keys, row)) {
            PyErr_SetString(PyExc_ValueError, "place_rows: a chosen sentence, line or key row out of range");
            goto done;
        }
        total += starts[l + 1] - starts[l];
    }
    for (int o = 0; o < 5; o++)
        if ((outputs[o] = PyBytes_FromStringAndSize(NULL, (o < 4 ? total : n_sentences + 1) * 8)) == NULL)
            goto done;
    int64_t *places = (int64_t *)PyBytes_AS_STRING(outputs[0]), *sigma_rows = (int64_t *)PyBytes_AS_STRING(outputs[1]);
    int64_t *eta = (int64_t *)PyBytes_AS_STRING(outputs[2]), *sentence = (int64_t *)PyBytes_AS_STRING(outputs[3]);
    int64_t *edges = (int64_t *)PyBytes_AS_STRING(outputs[4]);
    Py_ssize_t k = 0, next = 0;
    for (Py_ssize_t i = 0; i < n_chosen; i++) {
        int64_t d = chosen[i], l = lines[d], row = key_rows ? key_rows[d] : d;
        while (next <= d)
            edges[next++] = k;
        Py_ssize_t at = key_edges[row], stop = key_edges[row + 1];
        for (Py_ssize_t j = starts[l]; j < starts[l + 1]; j++, k++) {
            int64_t id = grams[j];
            while (at < stop && (keys[at] & 0xffffffffLL) < id)
                at++;
            int found = at < stop && (keys[at] & 0xffffffffLL) == id;
            places[k] = found ? at : -1;
            sigma_rows[k] = found ? sigma[at] : 0;
            eta[k] = counts[j];
            sentence[k] = d;
        }
    }
    while (next <= n_sentences)
        edges[next++] = k;
    result = PyTuple_Pack(5, outputs[0], outputs[1], outputs[2], outputs[3], outputs[4]);
done:
    for (int o = 0; o < 5; o++)
        Py_XDECREF(outputs[o]);
    while (held > 0)
        PyBuffer_Release(&views[--held]);
    return result;
}

/* ---- allocator ---------------------------------------------------------------------------- */

/* glibc returns large freed blocks to the system at once and faults fresh pages in for the
 * next one; a command that makes many large temporary arrays spends a fifth of its time so. */
static PyObject *keep_freed_memory(PyObject *module, PyObject *unused) {
#ifdef __GLIBC__
    int done = mallopt(M_MMAP_THRESHOLD, 32 << 20) && mallopt(M_TRIM_THRESHOLD, 1 << 30)
               && mallopt(M_TOP_PAD, 16 << 20);
    return PyBool_FromLong(done);
#else
    Py_RETURN_FALSE;
#endif
}

/* The freed memory kept above goes back to the system (a long command between two phases: the
 * next phase's many small Python objects live in the allocator's own arenas and cannot reuse it). */
static PyObject *release_freed_memory(PyObject *module, PyObject *unused) {
#ifdef __GLIBC__
    return PyBool_FromLong(malloc_trim(0));
#else
    Py_RETURN_FALSE;
#endif
}

/* ---- module ------------------------------------------------------------------------------ */

/* region_sums(sigma, rho, place, eta, edges) -> int64 bytes (D x 3): GREEN's region counts (SPEC
 * 3.1) that depend on the hypothesis, summed per sentence. Row i of a hypothesis's n-grams has its
 * source count sigma[i], its count eta[i] and its place among the reference-side keys (-1: no
 * source or reference has it), where the reference's count is rho[place]; sentence d holds rows
 * [edges[d], edges[d + 1]). Per sentence: TK = min(s, r, c), TI = max(min(r, c) - s, 0) and
 * min(s, r) - min(s, max(r, c)) (TD's part that the hypothesis changes), summed. */
static PyObject *region_sums(PyObject *module, PyObject *args) {
    PyObject *objects[5];
    static const char *names[5] = {"sigma", "rho", "place", "eta", "edges"};
    Py_buffer views[5];
    int held = 0;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "OOOOO:region_sums", &objects[0], &objects[1], &objects[2], &objects[3],
                          &objects[4]))
        return NULL;
    for (; held < 5; held++)
        if (get_int64_view(objects[held], &views[held], names[held]) < 0)
            goto done;
    const int64_t *sigma = views[0].buf, *rho = views[1].buf, *place = views[2].buf, *eta = views[3].buf;
    const int64_t *edges = views[4].buf;
    Py_ssize_t n = views[0].len / 8, n_rho = views[1].len / 8, n_edges = views[4].len / 8;
    if (views[2].len / 8 != n || views[3].len / 8 != n || n_edges < 1 || edges[0] != 0 || edges[n_edges - 1] != n) {
        PyErr_SetString(PyExc_ValueError, "region_sums: sigma, place and eta must have one value a row, and the edges "
                                          "run from 0 to the number of rows");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (place[i] < -1 || place[i] >= n_rho) {
            PyErr_SetString(PyExc_ValueError, "region_sums: a place outside rho");
            goto done;
        }
    for (Py_ssize_t d = 1; d < n_edges; d++)
        if (edges[d] < edges[d - 1]) {
            PyErr_SetString(PyExc_ValueError, "region_sums: the edges must not decrease");
            goto done;
        }
    out = PyBytes_FromStringAndSize(NULL, (n_edges - 1) * 3 * 8);
    if (out == NULL)
        goto done;
    int64_t *sums = (int64_t *)PyBytes_AS_STRING(out);
    for (Py_ssize_t d = 0; d + 1 < n_edges; d++) {
        int64_t tk = 0, ti = 0, td = 0;
        for (Py_ssize_t i = edges[d]; i < edges[d + 1]; i++) {
            int64_t s = sigma[i], c = eta[i], r = place[i] >= 0 ? rho[place[i]] : 0;
            int64_t sr = s < r ? s : r, rc = r < c ? r : c, r_or_c = r > c ? r : c;
            tk += sr < c ? sr : c;
            ti += rc > s ? rc - s : 0;
            td += sr - (s < r_or_c ? s : r_or_c);
        }
        sums[3 * d] = tk;
        sums[3 * d + 1] = ti;
        sums[3 * d + 2] = td;
    }
done:
    while (held > 0)
        PyBuffer_Release(&views[--held]);
    return out;
}

static PyMethodDef module_methods[] = {
    {"keep_freed_memory", keep_freed_memory, METH_NOARGS,
     "keep_freed_memory() -> bool: glibc keeps freed memory for reuse (for one-shot commands)"},
    {"release_freed_memory", release_freed_memory, METH_NOARGS,
     "release_freed_memory() -> bool: glibc returns the freed memory it keeps to the system"},
    {"positions", positions, METH_VARARGS,
     "positions(keys, queries) -> int64 bytes: index of each query in the sorted keys, or -1"},
    {"merge_sides", merge_sides, METH_VARARGS,
     "merge_sides(starts, grams, counts, lines, sides) -> (keys, edges, [(places, counts)] per side) as int64\n"
     "bytes: per row, the union of the sides' lines' n-gram ids, and where each side's rows are among them"},
    {"place_rows", place_rows, METH_VARARGS,
     "place_rows(starts, grams, counts, lines, chosen, keys, sigma, key_edges, key_rows) -> (places, sigma_rows,\n"
     "eta, sentence, edges) as int64 bytes: the chosen sentences' n-grams, each with its place among the\n"
     "reference-side keys or -1"},
    {"region_sums", region_sums, METH_VARARGS,
     "region_sums(sigma, rho, place, eta, edges) -> int64 bytes (D x 3): GREEN's TK, TI and TD's\n"
     "hypothesis part summed per sentence (SPEC 3.1)"},
    {"python2_draws", python2_draws, METH_VARARGS,
     "python2_draws(iterations, sentences, references) -> int64 bytes, row j seeded with j * 101"},
    {"python2_sampled_sums", python2_sampled_sums, METH_VARARGS,
     "python2_sampled_sums(stats, D, R, K, iterations, first) -> int64 bytes (iterations x K): per\n"
     "iteration, the sum over sentences of the stats row its python2 draw picks"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_definition = {
    PyModuleDef_HEAD_INIT, "gecmetrics.core._counting",
    "Compiled inner loops of the counting core (optional; ngrams.py has the NumPy reference).",
    -1, module_methods,
};

static int add_type(PyObject *module, const char *name, PyTypeObject *type) {
    if (PyType_Ready(type) < 0)
        return -1;
    Py_INCREF(type);
    if (PyModule_AddObject(module, name, (PyObject *)type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__counting(void) {
    PyObject *module = PyModule_Create(&module_definition);
    if (module == NULL)
        return NULL;
    /* what the package calls: gecmetrics/core/backend.py's COMPILED_API (raised with each change of it) */
    if (add_type(module, "NgramIds", &NgramIdsType) < 0 || add_type(module, "WordIds", &WordIdsType) < 0
        || PyModule_AddIntConstant(module, "API_VERSION", 3) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
