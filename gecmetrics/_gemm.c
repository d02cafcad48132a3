/* Optional single-precision matrix product for spaCy's networks, rounding as BLIS's generic
 * kernel does (gecmetrics/annotate/fastgemm.py decides whether to use it).
 *
 * On machines where the BLIS library bundled with spaCy (cython-blis) selects its 'generic'
 * sub-configuration, its reference micro-kernel computes every element of C = A B as
 *
 *     for each block of 256 consecutive k:  ab = 0; for k in block: ab = ab + a[i,k] * b[k,j]
 *     C[i,j] = first block's ab, then C[i,j] = C[i,j] + ab for each further block
 *
 * in float32, each product and each sum rounded on its own (no fused multiply-add). This module
 * does exactly those operations in exactly that order for each element, but many elements at a
 * time (SIMD across j, a register tile of rows), so the results are the same bits, several times
 * faster. Nothing here is taken from BLIS; the order was measured (fastgemm.py re-checks it
 * against the installed BLIS before using this module).
 *
 *   gemm(a, b, out, b_transposed) -> None
 *
 * a: M x K, b: K x N (or N x K with b_transposed), out: M x N; C-contiguous float32 buffers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#define KC 256 /* BLIS generic's k block for float */
#define MR 6   /* rows of the register tile */
#define NR 16  /* columns of the register tile (two 8-float vectors) */
#define MC 96  /* rows of A per pass over the packed panels */

typedef float v8 __attribute__((vector_size(32)));

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define GEMM_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GEMM_CLONES
#endif

/* One row of a tile (columns 0-7 in x0, 8-15 in x1) into c: stored (first k block) or added. */
static inline void store_tile(float *row, v8 x0, v8 x1, Py_ssize_t width, int first) {
    float tile[NR];
    memcpy(tile, &x0, sizeof(v8));
    memcpy(tile + 8, &x1, sizeof(v8));
    if (first) {
        memcpy(row, tile, (size_t)width * sizeof(float));
    } else {
        for (Py_ssize_t j = 0; j < width; j++) row[j] = row[j] + tile[j];
    }
}

/* One k block of one NR-column panel: rows [0, m) of a (row stride lda), packed panel p
 * (kc x NR), into c (row stride ldc, `width` valid columns); `first` stores, else adds. */
GEMM_CLONES
static void panel_block(const float *a, Py_ssize_t lda, Py_ssize_t m, Py_ssize_t kc, const float *p,
                        float *c, Py_ssize_t ldc, Py_ssize_t width, int first) {
    Py_ssize_t i = 0;
    for (; i + MR <= m; i += MR) {
        /* MR x NR accumulators, kept in registers once the loops over r and v are unrolled */
        v8 acc[MR][2];
#pragma GCC unroll 8
        for (int r = 0; r < MR; r++) acc[r][0] = acc[r][1] = (v8){0};
        const float *a0 = a + i * lda;
        for (Py_ssize_t k = 0; k < kc; k++) {
            v8 b0, b1;
            memcpy(&b0, p + k * NR, sizeof(v8));
            memcpy(&b1, p + k * NR + 8, sizeof(v8));
#pragma GCC unroll 8
            for (int r = 0; r < MR; r++) {
                float x = a0[r * lda + k];
                v8 xv = {x, x, x, x, x, x, x, x};
                v8 t0 = xv * b0, t1 = xv * b1;
                acc[r][0] = acc[r][0] + t0;
                acc[r][1] = acc[r][1] + t1;
            }
        }
#pragma GCC unroll 8
        for (int r = 0; r < MR; r++) store_tile(c + (i + r) * ldc, acc[r][0], acc[r][1], width, first);
    }
    for (; i < m; i++) {
        v8 acc0 = {0}, acc1 = {0};
        const float *a0 = a + i * lda;
        for (Py_ssize_t k = 0; k < kc; k++) {
            v8 b0, b1;
            memcpy(&b0, p + k * NR, sizeof(v8));
            memcpy(&b1, p + k * NR + 8, sizeof(v8));
            float x = a0[k];
            v8 xv = {x, x, x, x, x, x, x, x};
            v8 t0 = xv * b0;
            v8 t1 = xv * b1;
            acc0 = acc0 + t0;
            acc1 = acc1 + t1;
        }
        store_tile(c + i * ldc, acc0, acc1, width, first);
    }
}

/* Columns [j0, j0 + width) of b, k rows [k0, k0 + kc), packed as kc x NR (zeros beyond width). */
static void pack_panel(const float *b, Py_ssize_t n, Py_ssize_t k_total, int transposed, Py_ssize_t j0,
                       Py_ssize_t width, Py_ssize_t k0, Py_ssize_t kc, float *p) {
    memset(p, 0, (size_t)kc * NR * sizeof(float));
    for (Py_ssize_t k = 0; k < kc; k++) {
        for (Py_ssize_t j = 0; j < width; j++) {
            p[k * NR + j] = transposed ? b[(j0 + j) * k_total + k0 + k] : b[(k0 + k) * n + j0 + j];
        }
    }
}

/* C = A B by k blocks (in order: the first stores, the others add), each block's panels of B
 * packed once into p (panel after panel) and applied to MC rows of A at a time (kept in cache). */
static void product(const float *a, const float *b, float *c, Py_ssize_t m, Py_ssize_t n, Py_ssize_t k_total,
                    int transposed, float *p) {
    for (Py_ssize_t k0 = 0; k0 < k_total; k0 += KC) {
        Py_ssize_t kc = k_total - k0 < KC ? k_total - k0 : KC;
        for (Py_ssize_t j0 = 0; j0 < n; j0 += NR) {
            Py_ssize_t width = n - j0 < NR ? n - j0 : NR;
            pack_panel(b, n, k_total, transposed, j0, width, k0, kc, p + (j0 / NR) * kc * NR);
        }
        for (Py_ssize_t i0 = 0; i0 < m; i0 += MC) {
            Py_ssize_t rows = m - i0 < MC ? m - i0 : MC;
            for (Py_ssize_t j0 = 0; j0 < n; j0 += NR) {
                Py_ssize_t width = n - j0 < NR ? n - j0 : NR;
                panel_block(a + i0 * k_total + k0, k_total, rows, kc, p + (j0 / NR) * kc * NR, c + i0 * n + j0, n,
                            width, k0 == 0);
            }
        }
    }
}

static int get_matrix(PyObject *object, Py_buffer *view, int writable, const char *name) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, view, flags) < 0) return -1;
    if (view->ndim != 2 || view->itemsize != 4 || view->format == NULL || strcmp(view->format, "f") != 0) {
        PyErr_Format(PyExc_ValueError, "%s must be a C-contiguous 2-d float32 array", name);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *gemm(PyObject *self, PyObject *args) {
    PyObject *a_object, *b_object, *c_object;
    int transposed;
    if (!PyArg_ParseTuple(args, "OOOp", &a_object, &b_object, &c_object, &transposed)) return NULL;
    Py_buffer a, b, c;
    if (get_matrix(a_object, &a, 0, "a") < 0) return NULL;
    if (get_matrix(b_object, &b, 0, "b") < 0) { PyBuffer_Release(&a); return NULL; }
    if (get_matrix(c_object, &c, 1, "out") < 0) { PyBuffer_Release(&a); PyBuffer_Release(&b); return NULL; }
    Py_ssize_t m = a.shape[0], k = a.shape[1];
    Py_ssize_t n = transposed ? b.shape[0] : b.shape[1];
    Py_ssize_t kb = transposed ? b.shape[1] : b.shape[0];
    PyObject *result = NULL;
    if (kb != k || c.shape[0] != m || c.shape[1] != n) {
        PyErr_SetString(PyExc_ValueError, "gemm: shapes do not match");
    } else if (m > 0 && n > 0) {
        float *panel = malloc((size_t)KC * ((n + NR - 1) / NR) * NR * sizeof(float));
        if (panel == NULL) {
            PyErr_NoMemory();
        } else {
            Py_BEGIN_ALLOW_THREADS
            if (k == 0) memset(c.buf, 0, (size_t)(m * n) * sizeof(float));
            else product(a.buf, b.buf, c.buf, m, n, k, transposed, panel);
            Py_END_ALLOW_THREADS
            free(panel);
            result = Py_None;
        }
    } else {
        result = Py_None;
    }
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    PyBuffer_Release(&c);
    Py_XINCREF(result);
    return result;
}

static PyMethodDef methods[] = {
    {"gemm", gemm, METH_VARARGS,
     "gemm(a, b, out, b_transposed): out = a @ b (or a @ b.T), float32, rounded as BLIS's generic kernel."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_gemm", NULL, -1, methods};

PyMODINIT_FUNC PyInit__gemm(void) { return PyModule_Create(&module); }
