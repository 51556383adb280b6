/* SPDX-License-Identifier: MIT */
/* The C API from C: every error path (null handles, null arrays, wrong sizes, bad types, calls
 * out of order) and the results on scenes with a known answer (flat surfaces at a known gap:
 * every slave node paired, gap, normal, local coordinates and master segment known in closed
 * form; segment mode: the overlaps cover the slave surface exactly).
 * Usage: test_c_api MODEL_2D.msh MODEL_3D.inp GENERAL_CONTACT.inp SAME_NAME_SURFACES.inp
 * (shipped models and fixtures, for the model functions) */
#include "contact/c_api.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The checks copy and compare doubles bit for bit on purpose (memcpy, memcmp); C11's Annex K
 * functions the analyzer suggests instead are not in glibc. */
/* NOLINTBEGIN(bugprone-suspicious-memory-comparison) */
/* NOLINTBEGIN(clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling) */

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        ++checks;                                                                                  \
        if (!(cond)) {                                                                             \
            ++failures;                                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
        }                                                                                          \
    } while (0)

/* A call that must fail with `code` and a message containing `text` (thread and handle). */
#define EXPECT_ERR(call, code, text)                                                               \
    do {                                                                                           \
        const int rc_ = (call);                                                                    \
        ++checks;                                                                                  \
        if (rc_ != (code) || strstr(contact_last_error(), (text)) == NULL) {                       \
            ++failures;                                                                            \
            fprintf(stderr, "%s:%d: %s: got %d (%s) '%s', expected %d with '%s'\n", __FILE__,      \
                    __LINE__, #call, rc_, contact_status_name(rc_), contact_last_error(), (code),  \
                    (text));                                                                       \
        }                                                                                          \
    } while (0)

#define EXPECT_OK(call)                                                                            \
    do {                                                                                           \
        const int rc_ = (call);                                                                    \
        ++checks;                                                                                  \
        if (rc_ != CONTACT_OK) {                                                                   \
            ++failures;                                                                            \
            fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__, #call,                      \
                    contact_status_name(rc_), contact_last_error());                               \
        }                                                                                          \
    } while (0)

/* ---- A scene with a known answer ----------------------------------------------------------- */
/* Master: n x n Quad4 on [0, n]^2 at z = 0, normal +z (counter-clockwise seen from +z).
 * Slave: m x m Quad4 on [a, a + m h]^2 at z = gap, normal -z, its nodes never on a master edge. */
enum { N = 6, M = 7 };
static const double kGap = 0.125;
static const double kA = 0.3;
static const double kH = 0.77;

typedef struct Scene {
    int num_nodes;
    double xyz[3 * ((N + 1) * (N + 1) + (M + 1) * (M + 1))];
    int32_t master_types[N * N];
    int32_t master_conn[4 * N * N];
    int32_t slave_types[M * M];
    int32_t slave_conn[4 * M * M];
    contact_surface master;
    contact_surface slave;
} Scene;

static void make_scene(Scene* s) {
    ptrdiff_t k = 0;
    for (int j = 0; j <= N; ++j) {
        for (int i = 0; i <= N; ++i, ++k) {
            s->xyz[3 * k] = i;
            s->xyz[3 * k + 1] = j;
            s->xyz[3 * k + 2] = 0.0;
        }
    }
    const int first_slave = (int)k;
    for (int j = 0; j <= M; ++j) {
        for (int i = 0; i <= M; ++i, ++k) {
            s->xyz[3 * k] = kA + kH * i;
            s->xyz[3 * k + 1] = kA + kH * j;
            s->xyz[3 * k + 2] = kGap;
        }
    }
    s->num_nodes = (int)k;
    for (int j = 0; j < N; ++j) {
        for (int i = 0; i < N; ++i) {
            const ptrdiff_t e = j * N + i;
            const int n0 = j * (N + 1) + i;
            s->master_types[e] = CONTACT_QUAD4;
            s->master_conn[4 * e] = n0;
            s->master_conn[4 * e + 1] = n0 + 1;
            s->master_conn[4 * e + 2] = n0 + N + 2;
            s->master_conn[4 * e + 3] = n0 + N + 1;
        }
    }
    for (int j = 0; j < M; ++j) {
        for (int i = 0; i < M; ++i) {
            const ptrdiff_t e = j * M + i;
            const int n0 = first_slave + j * (M + 1) + i;
            s->slave_types[e] = CONTACT_QUAD4; /* clockwise from +z: normal -z */
            s->slave_conn[4 * e] = n0;
            s->slave_conn[4 * e + 1] = n0 + M + 1;
            s->slave_conn[4 * e + 2] = n0 + M + 2;
            s->slave_conn[4 * e + 3] = n0 + 1;
        }
    }
    s->master.name = "plate";
    s->master.num_segments = N * N;
    s->master.types = s->master_types;
    s->master.offsets = NULL;
    s->master.connectivity = s->master_conn;
    s->master.connectivity_size = (int64_t)4 * N * N;
    s->slave.name = "sheet";
    s->slave.num_segments = M * M;
    s->slave.types = s->slave_types;
    s->slave.offsets = NULL;
    s->slave.connectivity = s->slave_conn;
    s->slave.connectivity_size = (int64_t)4 * M * M;
}

static contact_search* make_search(int mode, double capture) {
    contact_search_options o;
    contact_search_options_default(&o);
    o.mode = mode;
    o.capture = capture;
    o.capture_relative = 0;
    contact_search* s = NULL;
    EXPECT_OK(contact_search_create(&o, &s));
    return s;
}

/* ---- Tests ------------------------------------------------------------------------------------
 */

static void test_names_and_options(void) {
    CHECK(strcmp(contact_status_name(CONTACT_OK), "ok") == 0);
    CHECK(strcmp(contact_status_name(CONTACT_ERROR_BUFFER_TOO_SMALL), "buffer too small") == 0);
    CHECK(strcmp(contact_status_name(-7), "unknown status") == 0);
    CHECK(strlen(contact_version()) >= 5);
    CHECK(contact_segment_node_count(CONTACT_QUAD9) == 9);
    CHECK(contact_segment_node_count(CONTACT_LINE3) == 3);
    CHECK(contact_segment_node_count(7) == 0);
    CHECK(contact_segment_node_count(-1) == 0);
    CHECK(contact_pair_field_width(CONTACT_FIELD_SHAPE) == 9);
    CHECK(contact_pair_field_width(CONTACT_FIELD_XI) == 2);
    CHECK(contact_pair_field_width(11) == 0);

    contact_search_options o;
    contact_search_options_default(&o);
    CHECK(o.capture == 0.5 && o.capture_relative == 1 && o.threads == 1);
    CHECK(o.mode == CONTACT_MODE_NODE_TO_SEGMENT && o.broad_phase == CONTACT_BROAD_PHASE_SWEEP);
    CHECK(o.warm_start == 1);
    contact_search_options_default(NULL); /* no crash */

    contact_search* s = NULL;
    EXPECT_ERR(contact_search_create(NULL, NULL), CONTACT_ERROR_NULL_POINTER,
               "search (the output)");
    contact_search_options bad = o;
    bad.capture = NAN;
    EXPECT_ERR(contact_search_create(&bad, &s), CONTACT_ERROR_INVALID_ARGUMENT, "capture must be");
    bad = o;
    bad.capture = -1.0;
    EXPECT_ERR(contact_search_create(&bad, &s), CONTACT_ERROR_INVALID_ARGUMENT, "capture must be");
    bad = o;
    bad.capture = INFINITY;
    EXPECT_ERR(contact_search_create(&bad, &s), CONTACT_ERROR_INVALID_ARGUMENT, "capture must be");
    bad = o;
    bad.mode = 2;
    EXPECT_ERR(contact_search_create(&bad, &s), CONTACT_ERROR_INVALID_ARGUMENT, "mode must be");
    bad = o;
    bad.threads = 0;
    EXPECT_ERR(contact_search_create(&bad, &s), CONTACT_ERROR_INVALID_ARGUMENT, "threads must be");
    bad = o;
    bad.broad_phase = 3;
    EXPECT_ERR(contact_search_create(&bad, &s), CONTACT_ERROR_INVALID_ARGUMENT, "broad_phase");
    bad = o;
    bad.capture_relative = 2;
    EXPECT_ERR(contact_search_create(&bad, &s), CONTACT_ERROR_INVALID_ARGUMENT,
               "capture_relative must be 0 or 1");
    bad = o;
    bad.self_contact = -1;
    EXPECT_ERR(contact_search_create(&bad, &s), CONTACT_ERROR_INVALID_ARGUMENT, "self_contact");
    bad = o;
    bad.skin_relative = -0.5;
    EXPECT_ERR(contact_search_create(&bad, &s), CONTACT_ERROR_INVALID_ARGUMENT, "skin_relative");
    bad = o;
    bad.warm_start = 2;
    EXPECT_ERR(contact_search_create(&bad, &s), CONTACT_ERROR_INVALID_ARGUMENT,
               "warm_start must be 0 or 1");
    CHECK(s == NULL); /* untouched by failed calls */
    EXPECT_OK(contact_search_create(NULL, &s));
    CHECK(s != NULL);
    CHECK(strcmp(contact_search_error(s), "") == 0);
    contact_search_destroy(s);
}

static void test_null_handles(void) {
    Scene sc;
    make_scene(&sc);
    contact_coordinates x = contact_coordinates_interleaved(sc.xyz, sc.num_nodes, 3);
    contact_update_stats st;
    int32_t i32 = 0;
    double d = 0;
    double buf[4];
    int32_t ibuf[4];
    contact_node_pairs_view nv;
    contact_segment_pairs_view sv;
    contact_overlaps_view ov;
    const int h = CONTACT_ERROR_NULL_HANDLE;
    EXPECT_ERR(contact_search_set_surfaces(NULL, &sc.master, &sc.slave, &x), h, "handle is NULL");
    EXPECT_ERR(contact_search_set_surfaces_nodes(NULL, &sc.master, ibuf, 1, &x), h, "NULL");
    EXPECT_ERR(contact_search_update(NULL, &x, &st), h, "contact_search_update");
    EXPECT_ERR(contact_search_mode(NULL, &i32), h, "contact_search_mode");
    EXPECT_ERR(contact_search_capture_distance(NULL, &d), h, "NULL");
    EXPECT_ERR(contact_search_skin_distance(NULL, &d), h, "NULL");
    EXPECT_ERR(contact_search_slave_node_count(NULL, &i32), h, "NULL");
    EXPECT_ERR(contact_search_copy_slave_nodes(NULL, ibuf, 4), h, "NULL");
    EXPECT_ERR(contact_search_pair_count(NULL, &i32), h, "contact_search_pair_count");
    EXPECT_ERR(contact_search_copy_index_field(NULL, CONTACT_FIELD_SLAVE, ibuf, 4), h, "NULL");
    EXPECT_ERR(contact_search_copy_real_field(NULL, CONTACT_FIELD_GAP, buf, 4), h, "NULL");
    EXPECT_ERR(contact_search_node_pairs_view(NULL, &nv), h, "NULL");
    EXPECT_ERR(contact_search_segment_pairs_view(NULL, &sv), h, "NULL");
    EXPECT_ERR(contact_search_csr_rows(NULL, &i32), h, "NULL");
    EXPECT_ERR(contact_search_pairs_csr(NULL, ibuf, 4), h, "NULL");
    EXPECT_ERR(contact_search_compute_overlaps(NULL, &x, &i32), h, "NULL");
    EXPECT_ERR(contact_search_overlaps_view(NULL, &ov), h, "NULL");
    const char* name = NULL;
    const double* xyz = NULL;
    const int64_t* ids = NULL;
    contact_interface_info ii;
    contact_surface_info si;
    EXPECT_ERR(contact_model_num_nodes(NULL, &i32), h, "model handle is NULL");
    EXPECT_ERR(contact_model_coordinates(NULL, &xyz), h, "NULL");
    EXPECT_ERR(contact_model_node_ids(NULL, &ids), h, "NULL");
    EXPECT_ERR(contact_model_surface_count(NULL, &i32), h, "NULL");
    EXPECT_ERR(contact_model_surface_name(NULL, 0, &name), h, "NULL");
    EXPECT_ERR(contact_model_interface_count(NULL, &i32), h, "NULL");
    EXPECT_ERR(contact_model_interface(NULL, 0, &ii), h, "NULL");
    EXPECT_ERR(contact_model_surface(NULL, "x", &si), h, "NULL");
    EXPECT_ERR(contact_model_surface_kind(NULL, "x", 1, &si), h, "NULL");
    CHECK(strcmp(contact_search_error(NULL), "null handle") == 0);
    CHECK(strcmp(contact_model_error(NULL), "null handle") == 0);
    contact_search_destroy(NULL);
    contact_model_destroy(NULL);
}

static void test_out_of_order(void) {
    Scene sc;
    make_scene(&sc);
    contact_coordinates x = contact_coordinates_interleaved(sc.xyz, sc.num_nodes, 3);
    contact_search* s = make_search(CONTACT_MODE_NODE_TO_SEGMENT, 0.5);
    int32_t n = -1;
    double d = 0;
    int32_t ibuf[4];
    contact_node_pairs_view nv;
    contact_overlaps_view ov;
    const int o = CONTACT_ERROR_OUT_OF_ORDER;
    EXPECT_ERR(contact_search_update(s, &x, NULL), o, "contact_search_set_surfaces was not called");
    CHECK(strstr(contact_search_error(s), "contact_search_update") != NULL);
    EXPECT_ERR(contact_search_pair_count(s, &n), o, "no successful contact_search_update");
    EXPECT_ERR(contact_search_capture_distance(s, &d), o, "set_surfaces was not called");
    EXPECT_ERR(contact_search_skin_distance(s, &d), o, "set_surfaces was not called");
    EXPECT_ERR(contact_search_slave_node_count(s, &n), o, "set_surfaces was not called");
    EXPECT_ERR(contact_search_copy_slave_nodes(s, ibuf, 4), o, "set_surfaces was not called");
    EXPECT_ERR(contact_search_csr_rows(s, &n), o, "set_surfaces was not called");
    EXPECT_OK(contact_search_set_surfaces(s, &sc.master, &sc.slave, &x));
    EXPECT_ERR(contact_search_pair_count(s, &n), o, "no successful");
    EXPECT_ERR(contact_search_node_pairs_view(s, &nv), o, "no successful");
    EXPECT_ERR(contact_search_copy_index_field(s, CONTACT_FIELD_SLAVE, ibuf, 4), o,
               "no successful");
    EXPECT_ERR(contact_search_pairs_csr(s, ibuf, 4), o, "no successful");
    EXPECT_ERR(contact_search_overlaps_view(s, &ov), o, "no contact_search_compute_overlaps");
    CHECK(n == -1);
    EXPECT_OK(contact_search_update(s, &x, NULL));
    EXPECT_OK(contact_search_pair_count(s, &n));
    CHECK(n == (M + 1) * (M + 1));
    /* set_surfaces again clears the pairs */
    EXPECT_OK(contact_search_set_surfaces(s, &sc.master, &sc.slave, &x));
    EXPECT_ERR(contact_search_pair_count(s, &n), o, "no successful");
    contact_search_destroy(s);
}

static void test_bad_surfaces(void) {
    Scene sc;
    make_scene(&sc);
    contact_coordinates x = contact_coordinates_interleaved(sc.xyz, sc.num_nodes, 3);
    contact_search* s = make_search(CONTACT_MODE_NODE_TO_SEGMENT, 0.5);
    const int np = CONTACT_ERROR_NULL_POINTER;
    const int ia = CONTACT_ERROR_INVALID_ARGUMENT;
    const int ii = CONTACT_ERROR_INVALID_INPUT;
    EXPECT_ERR(contact_search_set_surfaces(s, NULL, &sc.slave, &x), np, "master is NULL");
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, NULL, &x), np, "slave is NULL");
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, NULL), np,
               "coordinates is NULL");
    contact_surface m = sc.master;
    m.types = NULL;
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), np,
               "master surface types is NULL");
    m = sc.master;
    m.connectivity = NULL;
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), np, "connectivity is NULL");
    m = sc.master;
    m.num_segments = -1;
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), ia, "num_segments is negative");
    m = sc.master;
    m.connectivity_size = 4 * N * N - 1; /* wrong size */
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), ia,
               "need 144 connectivity entries, connectivity_size is 143");
    m = sc.master;
    m.connectivity_size = -4;
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), ia, "out of range");
    int32_t types[N * N];
    memcpy(types, sc.master_types, sizeof types);
    types[5] = 17; /* bad type */
    m = sc.master;
    m.types = types;
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), ia,
               "master surface: segment 5 has type 17");
    types[5] = CONTACT_TRI3; /* a valid type with the wrong node count */
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), ia, "need 143 connectivity");
    /* offsets: must match the types */
    int32_t offsets[N * N + 1];
    for (int i = 0; i <= N * N; ++i) {
        offsets[i] = 4 * i;
    }
    m = sc.master;
    m.offsets = offsets;
    EXPECT_OK(contact_search_set_surfaces(s, &m, &sc.slave, &x));
    offsets[0] = 1;
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), ia, "offsets[0] is 1, not 0");
    offsets[0] = 0;
    offsets[3] = 11;
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), ia,
               "segment 2 of type Quad4 has 3 nodes in offsets, expected 4");
    /* node index out of range, degenerate segment, NaN coordinate: the C++ messages */
    int32_t conn[4 * N * N];
    memcpy(conn, sc.master_conn, sizeof conn);
    conn[9] = sc.num_nodes + 5;
    m = sc.master;
    m.connectivity = conn;
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), ii, "segment 2");
    CHECK(strstr(contact_search_error(s), "plate") != NULL);
    conn[9] = -1;
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), ii, "segment 2");
    memcpy(conn, sc.master_conn, sizeof conn);
    conn[13] = conn[12]; /* segment 3 repeats a node */
    EXPECT_ERR(contact_search_set_surfaces(s, &m, &sc.slave, &x), ii, "segment 3");
    Scene bad;
    make_scene(&bad);
    bad.xyz[3 * 2 + 1] = NAN;
    contact_coordinates xb = contact_coordinates_interleaved(bad.xyz, bad.num_nodes, 3);
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &xb), ii, "NaN");
    /* mixed dimensions */
    int32_t line_types[1] = {CONTACT_LINE2};
    int32_t line_conn[2] = {0, 1};
    contact_surface line = {"edge", 1, line_types, NULL, line_conn, 2};
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &line, &x), ii, "");
    /* slave nodes */
    int32_t nodes[3] = {0, 1, 999};
    EXPECT_ERR(contact_search_set_surfaces_nodes(s, &sc.master, NULL, 3, &x), np,
               "slave_nodes is NULL");
    EXPECT_ERR(contact_search_set_surfaces_nodes(s, &sc.master, nodes, -3, &x), ia, "negative");
    EXPECT_ERR(contact_search_set_surfaces_nodes(s, &sc.master, nodes, 3, &x), ii, "999");
    /* a refused call leaves the search as it was: it still has no surfaces */
    int32_t n = 0;
    contact_search* fresh = make_search(CONTACT_MODE_NODE_TO_SEGMENT, 0.5);
    EXPECT_ERR(contact_search_set_surfaces(fresh, &m, &sc.slave, &x), ii, "segment 3");
    EXPECT_ERR(contact_search_update(fresh, &x, NULL), CONTACT_ERROR_OUT_OF_ORDER, "not called");
    EXPECT_ERR(contact_search_slave_node_count(fresh, &n), CONTACT_ERROR_OUT_OF_ORDER,
               "not called");
    contact_search_destroy(fresh);
    contact_search_destroy(s);
}

static void test_bad_coordinates(void) {
    Scene sc;
    make_scene(&sc);
    contact_search* s = make_search(CONTACT_MODE_NODE_TO_SEGMENT, 0.5);
    const int np = CONTACT_ERROR_NULL_POINTER;
    const int ia = CONTACT_ERROR_INVALID_ARGUMENT;
    contact_coordinates x = contact_coordinates_interleaved(sc.xyz, sc.num_nodes, 3);
    contact_coordinates c = x;
    c.layout = 7;
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &c), ia,
               "layout 7 is unknown");
    c = x;
    c.dim = 4;
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &c), ia, "dim is 4");
    c = x;
    c.num_nodes = -2;
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &c), ia,
               "num_nodes is negative");
    c = contact_coordinates_interleaved(NULL, sc.num_nodes, 3);
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &c), np,
               "coordinates x is NULL");
    c = contact_coordinates_separate(sc.xyz, NULL, sc.xyz, sc.num_nodes);
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &c), np,
               "coordinates y is NULL");
    c = contact_coordinates_separate(sc.xyz, sc.xyz, sc.xyz, sc.num_nodes);
    c.dim = 2;
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &c), ia,
               "z is not NULL with dim 2");
    c = contact_coordinates_separate(sc.xyz, sc.xyz, NULL, sc.num_nodes);
    c.dim = 3;
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &c), np,
               "coordinates z is NULL");
    c = contact_coordinates_strided(sc.xyz, 2, sc.num_nodes, 3);
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &c), ia,
               "stride 2 is below dim 3");
    /* 2^61 + 3 doubles: (n - 1) * stride * 8 wraps to exactly stride 3's addresses */
    c = contact_coordinates_strided(sc.xyz, ((int64_t)1 << 61) + 3, sc.num_nodes, 3);
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &c), ia,
               "reaches beyond the address space");
    c = contact_coordinates_strided(sc.xyz, INT64_MAX, sc.num_nodes, 3);
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &c), ia,
               "reaches beyond the address space");
    /* the node count passed as num_segments: refused before the types array is read */
    contact_surface too_many = sc.master;
    too_many.num_segments = (int32_t)(too_many.connectivity_size / 2 + 1);
    EXPECT_ERR(contact_search_set_surfaces(s, &too_many, &sc.slave, &x), ia, "needs at least");
    /* fewer nodes than the connectivity uses: the C++ check names the segment */
    c = contact_coordinates_interleaved(sc.xyz, 10, 3);
    EXPECT_ERR(contact_search_set_surfaces(s, &sc.master, &sc.slave, &c),
               CONTACT_ERROR_INVALID_INPUT, "segment");
    /* updates with bad coordinates: the pairs of the last good update stay */
    EXPECT_OK(contact_search_set_surfaces(s, &sc.master, &sc.slave, &x));
    contact_update_stats st;
    memset(&st, 0, sizeof st);
    EXPECT_OK(contact_search_update(s, &x, &st));
    CHECK(st.status == CONTACT_UPDATE_OK && st.pairs == (M + 1) * (M + 1) && st.rebuilt == 1);
    CHECK(st.master_boxes == sc.master.num_segments);
    /* the same coordinates again: the list is reused and every master keeps its boxes */
    EXPECT_OK(contact_search_update(s, &x, &st));
    CHECK(st.pairs == (M + 1) * (M + 1) && st.rebuilt == 0 && st.master_boxes == 0);
    contact_node_pairs_view before;
    EXPECT_OK(contact_search_node_pairs_view(s, &before));
    double gap0 = before.gap[0];
    EXPECT_ERR(contact_search_update(s, NULL, &st), np, "coordinates is NULL");
    c = contact_coordinates_interleaved(sc.xyz, sc.num_nodes - 1, 3);
    EXPECT_ERR(contact_search_update(s, &c, &st), CONTACT_ERROR_UPDATE_FAILED,
               "wrong node count (112 nodes in 3D; the surfaces were set with 113 in 3D)");
    CHECK(st.status == CONTACT_UPDATE_WRONG_NODE_COUNT);
    Scene moved;
    make_scene(&moved);
    moved.xyz[3 * sc.num_nodes - 1] = INFINITY;
    c = contact_coordinates_interleaved(moved.xyz, moved.num_nodes, 3);
    char named[64];
    snprintf(named, sizeof named, "non-finite coordinates (node %d at (", sc.num_nodes - 1);
    EXPECT_ERR(contact_search_update(s, &c, &st), CONTACT_ERROR_UPDATE_FAILED, named);
    EXPECT_ERR(contact_search_update(s, &c, &st), CONTACT_ERROR_UPDATE_FAILED, ", inf))");
    CHECK(st.status == CONTACT_UPDATE_NON_FINITE_COORDINATES);
    moved.xyz[3 * sc.num_nodes - 1] = 1e33;
    snprintf(named, sizeof named, "out of range (node %d at (", sc.num_nodes - 1);
    EXPECT_ERR(contact_search_update(s, &c, &st), CONTACT_ERROR_UPDATE_FAILED, named);
    CHECK(st.status == CONTACT_UPDATE_COORDINATES_OUT_OF_RANGE);
    int32_t fault = -7;
    EXPECT_OK(contact_search_fault_node(s, &fault));
    CHECK(fault == sc.num_nodes - 1);
    EXPECT_ERR(contact_search_fault_node(s, NULL), CONTACT_ERROR_NULL_POINTER, "node");
    int32_t n = 0;
    EXPECT_OK(contact_search_pair_count(s, &n));
    CHECK(n == (M + 1) * (M + 1));
    contact_node_pairs_view after;
    EXPECT_OK(contact_search_node_pairs_view(s, &after));
    CHECK(after.count == before.count && after.gap[0] == gap0);
    EXPECT_OK(contact_search_update(s, &x, &st));
    EXPECT_OK(contact_search_fault_node(s, &fault));
    CHECK(fault == -1);
    /* a failed update, then set_surfaces: the new set-up has no failed update */
    EXPECT_ERR(contact_search_update(s, &c, &st), CONTACT_ERROR_UPDATE_FAILED, named);
    EXPECT_OK(contact_search_fault_node(s, &fault));
    CHECK(fault == sc.num_nodes - 1);
    EXPECT_OK(contact_search_set_surfaces(s, &sc.master, &sc.slave, &x));
    EXPECT_OK(contact_search_fault_node(s, &fault));
    CHECK(fault == -1);
    contact_search_destroy(s);
}

/* Master segment of the closest point of (x, y): the cell holding it (no slave node lies on an
 * edge), and its local coordinates. */
static int expected_master(double x, double y, double* xi, double* eta) {
    const int i = (int)floor(x);
    const int j = (int)floor(y);
    *xi = 2.0 * (x - i) - 1.0;
    *eta = 2.0 * (y - j) - 1.0;
    return j * N + i;
}

static void check_node_pairs(const Scene* sc, contact_search* s) {
    contact_node_pairs_view v;
    EXPECT_OK(contact_search_node_pairs_view(s, &v));
    CHECK(v.count == (M + 1) * (M + 1));
    const int first_slave = (N + 1) * (N + 1);
    for (ptrdiff_t p = 0; p < v.count; ++p) {
        const ptrdiff_t node = first_slave + p; /* ordered by slave node, every node paired */
        CHECK(v.slave[p] == node);
        double xi = 0;
        double eta = 0;
        const ptrdiff_t m = expected_master(sc->xyz[3 * node], sc->xyz[3 * node + 1], &xi, &eta);
        CHECK(v.master[p] == m);
        CHECK(fabs(v.gap[p] - kGap) <= 1e-15 && fabs(v.distance[p] - kGap) <= 1e-15);
        CHECK(v.normal[3 * p] == 0.0 && v.normal[3 * p + 1] == 0.0 && v.normal[3 * p + 2] == 1.0);
        CHECK(fabs(v.xi[2 * p] - xi) <= 1e-12 && fabs(v.xi[2 * p + 1] - eta) <= 1e-12);
        CHECK(v.status[p] == CONTACT_PROJECTION_CONVERGED);
        CHECK(fabs(v.point[3 * p] - sc->xyz[3 * node]) <= 1e-14 && v.point[3 * p + 2] == 0.0);
        double sum = 0;
        double px = 0;
        for (ptrdiff_t k = 0; k < CONTACT_MAX_SEGMENT_NODES; ++k) {
            sum += v.shape[9 * p + k];
            if (k < 4) {
                px += v.shape[9 * p + k] * sc->xyz[3 * (ptrdiff_t)sc->master_conn[4 * m + k]];
            } else {
                CHECK(v.shape[9 * p + k] == 0.0);
            }
        }
        CHECK(fabs(sum - 1.0) <= 1e-14 && fabs(px - v.point[3 * p]) <= 1e-14);
        CHECK(fabs(v.tangent1[3 * p] - 1.0) <= 1e-15 && fabs(v.tangent2[3 * p + 1] - 1.0) <= 1e-15);
    }
}

static void test_node_pairs(void) {
    Scene sc;
    make_scene(&sc);
    const int nn = sc.num_nodes;
    double sep[3][(N + 1) * (N + 1) + (M + 1) * (M + 1)];
    double rec[5 * ((N + 1) * (N + 1) + (M + 1) * (M + 1))]; /* records: x y z + 2 more */
    for (int i = 0; i < nn; ++i) {
        for (int c = 0; c < 3; ++c) {
            sep[c][i] = sc.xyz[3 * i + c];
            rec[5 * i + c] = sc.xyz[3 * i + c];
        }
        rec[5 * i + 3] = -1.0;
        rec[5 * i + 4] = NAN; /* never read */
    }
    const contact_coordinates layouts[3] = {
        contact_coordinates_interleaved(sc.xyz, nn, 3),
        contact_coordinates_separate(sep[0], sep[1], sep[2], nn),
        contact_coordinates_strided(rec, 5, nn, 3),
    };
    double gaps[3][(M + 1) * (M + 1)];
    for (int l = 0; l < 3; ++l) {
        contact_search* s = make_search(CONTACT_MODE_NODE_TO_SEGMENT, 0.5);
        EXPECT_OK(contact_search_set_surfaces(s, &sc.master, &sc.slave, &layouts[l]));
        contact_update_stats st;
        EXPECT_OK(contact_search_update(s, &layouts[l], &st));
        CHECK(st.pairs == (M + 1) * (M + 1));
        check_node_pairs(&sc, s);
        EXPECT_OK(contact_search_copy_real_field(s, CONTACT_FIELD_GAP, gaps[l],
                                                 (int64_t)(M + 1) * (M + 1)));
        int32_t mode = -1;
        double capture = 0;
        double skin = -1;
        int32_t nslave = 0;
        EXPECT_OK(contact_search_mode(s, &mode));
        EXPECT_OK(contact_search_capture_distance(s, &capture));
        EXPECT_OK(contact_search_skin_distance(s, &skin));
        EXPECT_OK(contact_search_slave_node_count(s, &nslave));
        CHECK(mode == CONTACT_MODE_NODE_TO_SEGMENT && capture == 0.5 && skin > 0.0);
        CHECK(nslave == (M + 1) * (M + 1));
        contact_search_destroy(s);
    }
    CHECK(memcmp(gaps[0], gaps[1], sizeof gaps[0]) == 0);
    CHECK(memcmp(gaps[0], gaps[2], sizeof gaps[0]) == 0);

    /* copies equal the views; sizes and fields checked */
    contact_search* s = make_search(CONTACT_MODE_NODE_TO_SEGMENT, 0.5);
    EXPECT_OK(contact_search_set_surfaces(s, &sc.master, &sc.slave, &layouts[0]));
    EXPECT_OK(contact_search_update(s, &layouts[0], NULL));
    contact_node_pairs_view v;
    EXPECT_OK(contact_search_node_pairs_view(s, &v));
    const int P = v.count;
    int32_t slave[(M + 1) * (M + 1)];
    int32_t master[(M + 1) * (M + 1)];
    int32_t status[(M + 1) * (M + 1)];
    double shape[9 * (M + 1) * (M + 1)];
    double normal[3 * (M + 1) * (M + 1)];
    EXPECT_OK(contact_search_copy_index_field(s, CONTACT_FIELD_SLAVE, slave, P));
    EXPECT_OK(contact_search_copy_index_field(s, CONTACT_FIELD_MASTER, master, P));
    EXPECT_OK(contact_search_copy_index_field(s, CONTACT_FIELD_STATUS, status, P));
    EXPECT_OK(contact_search_copy_real_field(s, CONTACT_FIELD_SHAPE, shape, 9 * (int64_t)P));
    EXPECT_OK(contact_search_copy_real_field(s, CONTACT_FIELD_NORMAL, normal, 3 * (int64_t)P));
    CHECK(memcmp(slave, v.slave, sizeof slave) == 0 &&
          memcmp(master, v.master, sizeof master) == 0);
    CHECK(memcmp(shape, v.shape, sizeof shape) == 0 &&
          memcmp(normal, v.normal, sizeof normal) == 0);
    CHECK(status[0] == v.status[0]);
    const int bs = CONTACT_ERROR_BUFFER_TOO_SMALL;
    EXPECT_ERR(contact_search_copy_real_field(s, CONTACT_FIELD_SHAPE, shape, 9 * P - 1), bs,
               "out holds 575 elements, 576 needed");
    EXPECT_ERR(contact_search_copy_index_field(s, CONTACT_FIELD_SLAVE, slave, 0), bs, "64 needed");
    EXPECT_ERR(contact_search_copy_index_field(s, CONTACT_FIELD_SLAVE, slave, -1), bs, "64 needed");
    EXPECT_ERR(contact_search_copy_index_field(s, CONTACT_FIELD_SLAVE, NULL, P),
               CONTACT_ERROR_NULL_POINTER, "out is NULL");
    EXPECT_ERR(contact_search_copy_real_field(s, 42, shape, 9 * (int64_t)P),
               CONTACT_ERROR_INVALID_ARGUMENT, "field 42 is unknown");
    EXPECT_ERR(contact_search_copy_index_field(s, CONTACT_FIELD_GAP, slave, P),
               CONTACT_ERROR_INVALID_ARGUMENT, "field gap holds doubles");
    EXPECT_ERR(contact_search_copy_real_field(s, CONTACT_FIELD_MASTER, shape, P),
               CONTACT_ERROR_INVALID_ARGUMENT, "field master holds integers");
    contact_segment_pairs_view sv;
    EXPECT_ERR(contact_search_segment_pairs_view(s, &sv), CONTACT_ERROR_WRONG_MODE,
               "runs node-to-segment");
    EXPECT_ERR(contact_search_node_pairs_view(s, NULL), CONTACT_ERROR_NULL_POINTER, "view is NULL");
    int32_t count = 0;
    EXPECT_ERR(contact_search_compute_overlaps(s, &layouts[0], &count), CONTACT_ERROR_WRONG_MODE,
               "segment-to-segment");
    EXPECT_ERR(contact_search_pair_count(s, NULL), CONTACT_ERROR_NULL_POINTER, "count is NULL");

    /* CSR by slave: one row per node of the coordinates, rows of paired nodes hold one pair */
    int32_t rows = 0;
    EXPECT_OK(contact_search_csr_rows(s, &rows));
    CHECK(rows == nn);
    int32_t offsets[(N + 1) * (N + 1) + (M + 1) * (M + 1) + 1];
    EXPECT_ERR(contact_search_pairs_csr(s, offsets, rows), bs, "offsets holds 113 elements, 114");
    EXPECT_ERR(contact_search_pairs_csr(s, NULL, rows + 1), CONTACT_ERROR_NULL_POINTER, "offsets");
    EXPECT_OK(contact_search_pairs_csr(s, offsets, rows + 1));
    CHECK(offsets[0] == 0 && offsets[rows] == P);
    for (int r = 0; r < rows; ++r) {
        const int paired = r >= (N + 1) * (N + 1);
        CHECK(offsets[r + 1] - offsets[r] == paired);
        if (paired) {
            CHECK(v.slave[offsets[r]] == r);
        }
    }

    /* slave nodes list: the same pairs as the slave surface */
    int32_t nodes[(M + 1) * (M + 1)];
    EXPECT_ERR(contact_search_copy_slave_nodes(s, nodes, 3), bs, "nodes holds 3");
    EXPECT_OK(contact_search_copy_slave_nodes(s, nodes, (int64_t)(M + 1) * (M + 1)));
    contact_search* t = make_search(CONTACT_MODE_NODE_TO_SEGMENT, 0.5);
    EXPECT_OK(
        contact_search_set_surfaces_nodes(t, &sc.master, nodes, (M + 1) * (M + 1), &layouts[1]));
    EXPECT_OK(contact_search_update(t, &layouts[2], NULL));
    contact_node_pairs_view w;
    EXPECT_OK(contact_search_node_pairs_view(t, &w));
    CHECK(w.count == P && memcmp(w.gap, v.gap, sizeof(double) * (size_t)P) == 0);
    CHECK(memcmp(w.master, v.master, sizeof(int32_t) * (size_t)P) == 0);
    contact_search_destroy(t);
    contact_search_destroy(s);
}

/* Segment mode: each slave segment overlaps the masters under it, and the overlaps of a slave
 * surface lying wholly over the master cover it: their areas sum to the slave's area. */
static void test_segment_mode(void) {
    Scene sc;
    make_scene(&sc);
    contact_coordinates x = contact_coordinates_interleaved(sc.xyz, sc.num_nodes, 3);
    contact_search* s = make_search(CONTACT_MODE_SEGMENT_TO_SEGMENT, 0.25);
    int32_t count = -1;
    EXPECT_ERR(contact_search_set_surfaces_nodes(s, &sc.master, sc.slave_conn, 4, &x),
               CONTACT_ERROR_INVALID_INPUT, "node-to-segment mode");
    EXPECT_OK(contact_search_set_surfaces(s, &sc.master, &sc.slave, &x));
    EXPECT_ERR(contact_search_compute_overlaps(s, &x, &count), CONTACT_ERROR_OUT_OF_ORDER,
               "no successful");
    EXPECT_OK(contact_search_update(s, &x, NULL));
    contact_segment_pairs_view v;
    EXPECT_OK(contact_search_segment_pairs_view(s, &v));
    CHECK(v.count >= M * M);
    for (int p = 1; p < v.count; ++p) {
        CHECK(v.slave[p - 1] < v.slave[p] ||
              (v.slave[p - 1] == v.slave[p] && v.master[p - 1] < v.master[p]));
    }
    contact_node_pairs_view nv;
    EXPECT_ERR(contact_search_node_pairs_view(s, &nv), CONTACT_ERROR_WRONG_MODE,
               "segment-to-segment");
    double gap[4];
    EXPECT_ERR(contact_search_copy_real_field(s, CONTACT_FIELD_GAP, gap, 4),
               CONTACT_ERROR_WRONG_MODE, "node-to-segment mode only");
    int32_t st[4];
    EXPECT_ERR(contact_search_copy_index_field(s, CONTACT_FIELD_STATUS, st, 4),
               CONTACT_ERROR_WRONG_MODE, "field status");
    int32_t* master = malloc(sizeof(int32_t) * (size_t)v.count);
    EXPECT_OK(contact_search_copy_index_field(s, CONTACT_FIELD_MASTER, master, v.count));
    CHECK(memcmp(master, v.master, sizeof(int32_t) * (size_t)v.count) == 0);
    free(master);
    int32_t rows = 0;
    EXPECT_OK(contact_search_csr_rows(s, &rows));
    CHECK(rows == M * M);
    int32_t offsets[M * M + 1];
    EXPECT_OK(contact_search_pairs_csr(s, offsets, M * M + 1));
    for (int r = 0; r < rows; ++r) {
        CHECK(offsets[r + 1] > offsets[r]); /* every slave segment has a master under it */
        for (int k = offsets[r]; k < offsets[r + 1]; ++k) {
            CHECK(v.slave[k] == r);
        }
    }
    EXPECT_ERR(contact_search_compute_overlaps(s, &x, NULL), CONTACT_ERROR_NULL_POINTER, "count");
    contact_coordinates few = contact_coordinates_interleaved(sc.xyz, 3, 3);
    EXPECT_ERR(contact_search_compute_overlaps(s, &few, &count), CONTACT_ERROR_INVALID_ARGUMENT,
               "the coordinates have 3 nodes");
    /* coordinates other than the update's (NaN, moved, or a copy with one bit changed) are
     * refused; a copy with the same values (-0 for 0) is taken */
    const char* other = "the coordinates differ from those of the last successful update";
    Scene moved;
    make_scene(&moved);
    contact_coordinates y = contact_coordinates_interleaved(moved.xyz, sc.num_nodes, 3);
    moved.xyz[3 * 1 + 2] = NAN;
    EXPECT_ERR(contact_search_compute_overlaps(s, &y, &count), CONTACT_ERROR_INVALID_ARGUMENT,
               other);
    moved.xyz[3 * 1 + 2] = 0.0;
    const size_t last = 3 * (size_t)(sc.num_nodes - 1);
    moved.xyz[last] = nextafter(moved.xyz[last], 100.0);
    EXPECT_ERR(contact_search_compute_overlaps(s, &y, &count), CONTACT_ERROR_INVALID_ARGUMENT,
               other);
    make_scene(&moved);
    moved.xyz[2] = -0.0;
    EXPECT_OK(contact_search_compute_overlaps(s, &y, &count));
    EXPECT_OK(contact_search_compute_overlaps(s, &x, &count));
    contact_overlaps_view ov;
    EXPECT_ERR(contact_search_overlaps_view(s, NULL), CONTACT_ERROR_NULL_POINTER, "view");
    EXPECT_OK(contact_search_overlaps_view(s, &ov));
    CHECK(ov.count == count && count > 0 && count <= v.count);
    double area = 0;
    for (int k = 0; k < ov.count; ++k) {
        area += ov.overlap_area[k];
        /* every gap (kGap) is within the capture distance (0.25): all in contact, none penetrating
         */
        CHECK(ov.capture_area[k] == ov.overlap_area[k] && ov.penetration_area[k] == 0.0);
        CHECK(fabs(ov.gap_min[k] - kGap) < 1e-12 && fabs(ov.gap_max[k] - kGap) < 1e-12);
        CHECK(ov.vertex_count[k] >= 3 && ov.vertex_count[k] <= CONTACT_MAX_OVERLAP_VERTICES);
        for (int i = 0; i < ov.vertex_count[k]; ++i) { /* drawn on the master, at z = 0 */
            CHECK(fabs(ov.vertices[3 * (CONTACT_MAX_OVERLAP_VERTICES * k + i) + 2]) < 1e-12);
        }
    }
    const double slave_area = (M * kH) * (M * kH);
    CHECK(fabs(area - slave_area) <= 1e-12 * slave_area);
    /* a search on three threads computes the same overlaps */
    contact_search_options o3;
    contact_search_options_default(&o3);
    o3.mode = CONTACT_MODE_SEGMENT_TO_SEGMENT;
    o3.capture = 0.25;
    o3.capture_relative = 0;
    o3.threads = 3;
    contact_search* s3 = NULL;
    EXPECT_OK(contact_search_create(&o3, &s3));
    EXPECT_OK(contact_search_set_surfaces(s3, &sc.master, &sc.slave, &x));
    EXPECT_OK(contact_search_update(s3, &x, NULL));
    int32_t count3 = -1;
    EXPECT_OK(contact_search_compute_overlaps(s3, &x, &count3));
    contact_overlaps_view ov3;
    EXPECT_OK(contact_search_overlaps_view(s3, &ov3));
    CHECK(count3 == count);
    const size_t nd = sizeof(double) * (size_t)count;
    CHECK(memcmp(ov3.slave, ov.slave, sizeof(int32_t) * (size_t)count) == 0);
    CHECK(memcmp(ov3.master, ov.master, sizeof(int32_t) * (size_t)count) == 0);
    CHECK(memcmp(ov3.overlap_area, ov.overlap_area, nd) == 0);
    CHECK(memcmp(ov3.capture_area, ov.capture_area, nd) == 0);
    CHECK(memcmp(ov3.gap_min, ov.gap_min, nd) == 0);
    CHECK(memcmp(ov3.vertices, ov.vertices, (size_t)3 * CONTACT_MAX_OVERLAP_VERTICES * nd) == 0);
    contact_search_destroy(s3);
    /* an update makes the overlaps stale */
    EXPECT_OK(contact_search_update(s, &x, NULL));
    EXPECT_ERR(contact_search_overlaps_view(s, &ov), CONTACT_ERROR_OUT_OF_ORDER,
               "no contact_search_compute");
    contact_search_destroy(s);
}

/* Moves node `from` of the scene onto node `onto`: the segments holding both collapse. */
static void collapse(Scene* sc, int from, int onto) {
    memcpy(sc->xyz + 3 * (size_t)from, sc->xyz + 3 * (size_t)onto, 3 * sizeof(double));
}

/* The orientation verdict with its counts; a degenerate segment named by the stats and by
 * contact_search_fault_segment; arguments refused before the search forget the last fault. */
static void test_orientation_and_faults(void) {
    Scene sc;
    make_scene(&sc);
    contact_coordinates x = contact_coordinates_interleaved(sc.xyz, sc.num_nodes, 3);
    const int pairs = (M + 1) * (M + 1);
    contact_search* s = make_search(CONTACT_MODE_NODE_TO_SEGMENT, 0.5);
    contact_update_stats st;
    memset(&st, 0x7f, sizeof st);
    EXPECT_OK(contact_search_set_surfaces(s, &sc.master, &sc.slave, &x));
    EXPECT_OK(contact_search_update(s, &x, &st));
    CHECK(st.orientation == CONTACT_ORIENTATION_CONSISTENT);
    CHECK(st.orientation_opposed == pairs && st.orientation_aligned == 0);
    CHECK(st.orientation_in_front == 0 && st.orientation_behind == 0);
    CHECK(st.fault_node == -1 && st.fault_segment == -1 && st.fault_in_slave == 0);
    /* the master given inside-out: normals aligned, the slave behind it (gap -kGap) */
    Scene flipped;
    make_scene(&flipped);
    for (int e = 0; e < N * N; ++e) {
        int32_t* c = flipped.master_conn + 4 * (size_t)e;
        const int32_t second = c[1];
        c[1] = c[3];
        c[3] = second;
    }
    EXPECT_OK(contact_search_set_surfaces(s, &flipped.master, &flipped.slave, &x));
    EXPECT_OK(contact_search_update(s, &x, &st));
    CHECK(st.orientation == CONTACT_ORIENTATION_MASTER_INSIDE_OUT);
    CHECK(st.orientation_opposed == 0 && st.orientation_aligned == pairs);
    CHECK(st.orientation_behind == pairs && st.orientation_in_front == 0);
    /* master segment 0 collapses (its node 1 onto its node 0) */
    EXPECT_OK(contact_search_set_surfaces(s, &sc.master, &sc.slave, &x));
    Scene bad;
    make_scene(&bad);
    collapse(&bad, 1, 0);
    contact_coordinates y = contact_coordinates_interleaved(bad.xyz, bad.num_nodes, 3);
    EXPECT_ERR(contact_search_update(s, &y, &st), CONTACT_ERROR_UPDATE_FAILED, "master segment 0");
    CHECK(st.status == CONTACT_UPDATE_DEGENERATE_SEGMENT);
    CHECK(st.fault_segment == 0 && st.fault_in_slave == 0);
    CHECK(st.fault_node == 0 || st.fault_node == 1);
    int32_t seg = -7;
    int32_t in_slave = -7;
    int32_t node = -7;
    EXPECT_OK(contact_search_fault_segment(s, &seg, &in_slave));
    CHECK(seg == 0 && in_slave == 0);
    EXPECT_OK(contact_search_fault_segment(s, &seg, NULL));
    EXPECT_ERR(contact_search_fault_segment(s, NULL, &in_slave), CONTACT_ERROR_NULL_POINTER,
               "segment");
    EXPECT_ERR(contact_search_fault_segment(NULL, &seg, &in_slave), CONTACT_ERROR_NULL_HANDLE,
               "NULL");
    /* refused before the search ran (dim 4, x NULL): no fault node or segment any more */
    contact_coordinates four = y;
    four.dim = 4;
    EXPECT_ERR(contact_search_update(s, &four, &st), CONTACT_ERROR_INVALID_ARGUMENT, "dim is 4");
    EXPECT_OK(contact_search_fault_node(s, &node));
    EXPECT_OK(contact_search_fault_segment(s, &seg, &in_slave));
    CHECK(node == -1 && seg == -1 && in_slave == 0);
    make_scene(&bad);
    bad.xyz[3 * 4 + 1] = NAN;
    EXPECT_ERR(contact_search_update(s, &y, &st), CONTACT_ERROR_UPDATE_FAILED, "node 4 at (");
    EXPECT_OK(contact_search_fault_node(s, &node));
    CHECK(node == 4 && st.fault_node == 4 && st.fault_segment == -1);
    contact_coordinates none = y;
    none.x = NULL;
    EXPECT_ERR(contact_search_update(s, &none, &st), CONTACT_ERROR_NULL_POINTER, "x is NULL");
    EXPECT_OK(contact_search_fault_node(s, &node));
    CHECK(node == -1);
    contact_search_destroy(s);
    /* segment mode: slave segment 0 collapses (the slave's second node onto its first) */
    contact_search* t = make_search(CONTACT_MODE_SEGMENT_TO_SEGMENT, 0.25);
    EXPECT_OK(contact_search_set_surfaces(t, &sc.master, &sc.slave, &x));
    make_scene(&bad);
    collapse(&bad, sc.slave_conn[1], sc.slave_conn[0]);
    EXPECT_ERR(contact_search_update(t, &y, &st), CONTACT_ERROR_UPDATE_FAILED, "slave segment 0");
    CHECK(st.status == CONTACT_UPDATE_DEGENERATE_SEGMENT);
    CHECK(st.fault_segment == 0 && st.fault_in_slave == 1);
    EXPECT_OK(contact_search_fault_segment(t, &seg, &in_slave));
    CHECK(seg == 0 && in_slave == 1);
    EXPECT_OK(contact_search_set_surfaces(t, &sc.master, &sc.slave, &x));
    EXPECT_OK(contact_search_fault_segment(t, &seg, &in_slave));
    CHECK(seg == -1 && in_slave == 0);
    contact_search_destroy(t);
}

/* Two searches: each handle keeps its own message; the thread's is the latest. */
static void test_messages(void) {
    Scene sc;
    make_scene(&sc);
    contact_coordinates x = contact_coordinates_interleaved(sc.xyz, sc.num_nodes, 3);
    contact_search* a = make_search(CONTACT_MODE_NODE_TO_SEGMENT, 0.5);
    contact_search* b = make_search(CONTACT_MODE_NODE_TO_SEGMENT, 0.5);
    int32_t n = 0;
    EXPECT_ERR(contact_search_update(a, &x, NULL), CONTACT_ERROR_OUT_OF_ORDER, "not called");
    EXPECT_ERR(contact_search_pair_count(b, NULL), CONTACT_ERROR_NULL_POINTER, "count is NULL");
    CHECK(strstr(contact_search_error(a), "contact_search_update") != NULL);
    CHECK(strstr(contact_search_error(b), "contact_search_pair_count") != NULL);
    CHECK(strstr(contact_last_error(), "contact_search_pair_count") != NULL);
    EXPECT_OK(contact_search_set_surfaces(b, &sc.master, &sc.slave, &x));
    EXPECT_OK(contact_search_update(b, &x, NULL));
    EXPECT_OK(contact_search_pair_count(b, &n));
    CHECK(strstr(contact_search_error(b), "contact_search_pair_count") != NULL); /* kept */
    contact_search_destroy(a);
    contact_search_destroy(b);
}

static void test_model(const char* path2d, const char* path3d) {
    contact_model* m = NULL;
    EXPECT_ERR(contact_model_read(NULL, &m), CONTACT_ERROR_NULL_POINTER, "path is NULL");
    EXPECT_ERR(contact_model_read(path3d, NULL), CONTACT_ERROR_NULL_POINTER, "model (the output)");
    EXPECT_ERR(contact_model_read("/nonexistent/model.inp", &m), CONTACT_ERROR_FILE,
               "contact_model_read: /nonexistent/model.inp: cannot open the file");
    EXPECT_ERR(contact_model_read("/nonexistent/model.xyz", &m), CONTACT_ERROR_FILE, "model.xyz");
    CHECK(m == NULL);

    EXPECT_OK(contact_model_read(path3d, &m));
    int32_t n = 0;
    EXPECT_OK(contact_model_num_nodes(m, &n));
    CHECK(n > 0);
    const double* xyz = NULL;
    const int64_t* ids = NULL;
    EXPECT_OK(contact_model_coordinates(m, &xyz));
    EXPECT_OK(contact_model_node_ids(m, &ids));
    CHECK(xyz != NULL && ids != NULL && ids[0] >= 1);
    EXPECT_ERR(contact_model_coordinates(m, NULL), CONTACT_ERROR_NULL_POINTER, "xyz is NULL");
    EXPECT_ERR(contact_model_node_ids(m, NULL), CONTACT_ERROR_NULL_POINTER, "ids is NULL");
    int32_t ns = 0;
    int32_t ni = 0;
    EXPECT_OK(contact_model_surface_count(m, &ns));
    EXPECT_OK(contact_model_interface_count(m, &ni));
    CHECK(ns == 2 && ni == 1);
    const char* name = NULL;
    EXPECT_OK(contact_model_surface_name(m, 1, &name));
    CHECK(name != NULL && strlen(name) > 0);
    EXPECT_ERR(contact_model_surface_name(m, 2, &name), CONTACT_ERROR_NOT_FOUND,
               "surface index 2 is out of range (the model has 2)");
    EXPECT_ERR(contact_model_surface_name(m, -1, &name), CONTACT_ERROR_NOT_FOUND, "index -1");
    EXPECT_ERR(contact_model_surface_name(m, 0, NULL), CONTACT_ERROR_NULL_POINTER, "name is NULL");
    contact_interface_info itf;
    EXPECT_OK(contact_model_interface(m, 0, &itf));
    CHECK(strcmp(itf.slave, "BlockTop") == 0 && strcmp(itf.master, "PunchBottom") == 0);
    CHECK(itf.kind == CONTACT_INTERFACE_CONTACT_PAIR && itf.mode == CONTACT_MODE_NODE_TO_SEGMENT);
    CHECK(itf.self_contact == 0);
    EXPECT_ERR(contact_model_interface(m, 1, &itf), CONTACT_ERROR_NOT_FOUND, "interface index 1");
    EXPECT_ERR(contact_model_interface(m, 0, NULL), CONTACT_ERROR_NULL_POINTER, "info is NULL");
    contact_surface_info master;
    contact_surface_info slave;
    EXPECT_ERR(contact_model_surface(m, "Nope", &master), CONTACT_ERROR_NOT_FOUND,
               "surface 'Nope' not found");
    CHECK(strstr(contact_model_error(m), "BlockTop") != NULL); /* lists the surfaces */
    EXPECT_ERR(contact_model_surface(m, NULL, &master), CONTACT_ERROR_NULL_POINTER, "name is NULL");
    EXPECT_ERR(contact_model_surface(m, itf.master, NULL), CONTACT_ERROR_NULL_POINTER, "info");
    EXPECT_OK(contact_model_surface(m, itf.master, &master));
    EXPECT_OK(contact_model_surface(m, "blocktop", &slave)); /* Abaqus names ignore case */
    CHECK(strcmp(slave.name, "BlockTop") == 0 && slave.node_surface == 0 && slave.dim == 3);
    CHECK(master.segments.num_segments > 0 && master.segments.offsets[0] == 0);
    CHECK(master.segments.offsets[master.segments.num_segments] ==
          master.segments.connectivity_size);
    CHECK(master.segments.types[0] == CONTACT_QUAD8 && master.faces[0] == 1);
    CHECK(slave.segments.types[0] == CONTACT_QUAD4 && slave.faces[0] == 2 &&
          slave.element_ids[0] > 0);
    contact_surface_info again;
    EXPECT_OK(contact_model_surface(m, "PUNCHBOTTOM", &again));
    CHECK(again.segments.connectivity == master.segments.connectivity); /* built once */

    contact_search* s = NULL;
    EXPECT_OK(contact_search_create(NULL, &s));
    contact_coordinates x = contact_coordinates_interleaved(xyz, n, 3);
    EXPECT_OK(contact_search_set_surfaces(s, &master.segments, &slave.segments, &x));
    EXPECT_OK(contact_search_update(s, &x, NULL));
    int32_t pairs = 0;
    EXPECT_OK(contact_search_pair_count(s, &pairs));
    CHECK(pairs > 0);
    contact_search_destroy(s);
    contact_model_destroy(m);

    /* 2D: the model's 3-per-node coordinates read as 2D through the strided layout */
    m = NULL;
    EXPECT_OK(contact_model_read(path2d, &m));
    EXPECT_OK(contact_model_num_nodes(m, &n));
    EXPECT_OK(contact_model_coordinates(m, &xyz));
    EXPECT_OK(contact_model_interface_count(m, &ni));
    CHECK(ni == 0);
    EXPECT_OK(contact_model_surface(m, "CylinderEdge", &master));
    EXPECT_OK(contact_model_surface(m, "BlockTop", &slave));
    CHECK(master.dim == 2 && master.segments.types[0] == CONTACT_LINE2);
    EXPECT_OK(contact_search_create(NULL, &s));
    x = contact_coordinates_strided(xyz, 3, n, 2);
    EXPECT_OK(contact_search_set_surfaces(s, &master.segments, &slave.segments, &x));
    contact_update_stats st;
    EXPECT_OK(contact_search_update(s, &x, &st));
    const int32_t found = st.pairs;
    CHECK(found > 0);
    x = contact_coordinates_interleaved(xyz, n, 3); /* 3D now: refused, the 2D pairs kept */
    EXPECT_ERR(contact_search_update(s, &x, &st), CONTACT_ERROR_UPDATE_FAILED, "wrong node count");
    EXPECT_OK(contact_search_pair_count(s, &pairs));
    CHECK(pairs == found);
    contact_search_destroy(s);
    contact_model_destroy(m);
}

/* General contact: its slaves are parts of its masters, searched as self-contact. */
static void test_general_contact(const char* path) {
    contact_model* m = NULL;
    EXPECT_OK(contact_model_read(path, &m));
    int32_t n = 0;
    EXPECT_OK(contact_model_interface_count(m, &n));
    CHECK(n == 3);
    for (int32_t i = 0; i < n; ++i) {
        contact_interface_info itf;
        EXPECT_OK(contact_model_interface(m, i, &itf));
        CHECK(itf.kind == CONTACT_INTERFACE_GENERAL_CONTACT && itf.self_contact == 1);
    }
    contact_model_destroy(m);
}

/* A node surface and an element surface of one name (ATOPN): contact_model_surface gives the
 * element surface, contact_model_surface_kind either; a name with one surface gives it for both
 * kinds. */
static void test_same_name_surfaces(const char* path) {
    contact_model* m = NULL;
    EXPECT_OK(contact_model_read(path, &m));
    contact_surface_info elements;
    contact_surface_info nodes;
    contact_surface_info again;
    EXPECT_OK(contact_model_surface(m, "ATOPN", &elements));
    CHECK(elements.node_surface == 0 && elements.segments.num_segments == 4);
    EXPECT_OK(contact_model_surface_kind(m, "atopn", 1, &nodes));
    CHECK(nodes.node_surface == 1 && nodes.num_nodes == 4 && nodes.segments.num_segments == 0);
    CHECK(nodes.nodes != NULL && nodes.nodes[0] == 9 && nodes.nodes[3] == 12);
    EXPECT_OK(contact_model_surface_kind(m, "ATOPN", 0, &again));
    CHECK(again.node_surface == 0 && again.segments.types == elements.segments.types);
    EXPECT_OK(contact_model_surface_kind(m, "ATOPN", 1, &again));
    CHECK(again.nodes == nodes.nodes); /* built once, kept */
    EXPECT_OK(contact_model_surface_kind(m, "B_BOT", 1, &again));
    CHECK(again.node_surface == 0 && again.segments.num_segments == 4);
    EXPECT_ERR(contact_model_surface_kind(m, "ATOPN", 2, &again), CONTACT_ERROR_INVALID_ARGUMENT,
               "nodes is 2");
    EXPECT_ERR(contact_model_surface_kind(m, "Nope", 1, &again), CONTACT_ERROR_NOT_FOUND, "Nope");
    contact_model_destroy(m);
}

int main(int argc, char** argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: test_c_api MODEL_2D.msh MODEL_3D.inp GENERAL_CONTACT.inp "
                        "SAME_NAME_SURFACES.inp\n");
        return 2;
    }
    CHECK(strcmp(contact_last_error(), "") == 0);
    test_names_and_options();
    test_null_handles();
    test_out_of_order();
    test_bad_surfaces();
    test_bad_coordinates();
    test_node_pairs();
    test_segment_mode();
    test_orientation_and_faults();
    test_messages();
    test_model(argv[1], argv[2]);
    test_general_contact(argv[3]);
    test_same_name_surfaces(argv[4]);
    printf("c_api: %d checks, %d failed\n", checks, failures);
    if (failures == 0) {
        printf("c_api: OK\n");
    }
    return failures == 0 ? 0 : 1;
}

/* NOLINTEND(clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling) */
/* NOLINTEND(bugprone-suspicious-memory-comparison) */
