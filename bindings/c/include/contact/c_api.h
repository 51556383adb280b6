/* SPDX-License-Identifier: MIT */
/* The C interface of the contact search (C99): opaque handles, int status codes, no exceptions.
 *
 * Conventions
 * - Every function returns CONTACT_OK (0) or an error code (contact_status); on error the outputs
 *   are left unchanged and a message says what went wrong: contact_search_error(search) or
 *   contact_model_error(model) for the handle's last failure, contact_last_error() for the last
 *   failure of any call on this thread (also calls without a handle, e.g. a failed create).
 *   Messages stay valid until the next failing call on the same handle (thread). A success does
 *   not clear them.
 * - Indices are 0-based and int32_t: node indices (into the coordinates), segment indices (into a
 *   surface), pair indices. Counts of nodes, segments and pairs are int32_t; lengths of arrays
 *   (a caller's buffer, a connectivity) are int64_t and count elements, not bytes.
 * - Every pointer is checked: a NULL handle gives CONTACT_ERROR_NULL_HANDLE, a NULL array or output
 *   CONTACT_ERROR_NULL_POINTER, except an array whose count is 0, which may be NULL.
 * - Nothing throws across this interface; out of memory is CONTACT_ERROR_OUT_OF_MEMORY.
 * - One handle is not for concurrent use; different handles may be used from different threads.
 *
 * Typical use (one interface, every increment):
 *
 *     contact_search* s = NULL;
 *     contact_search_options opt;
 *     contact_search_options_default(&opt);
 *     contact_search_create(&opt, &s);
 *     contact_coordinates x = contact_coordinates_interleaved(xyz, num_nodes, 3);
 *     contact_search_set_surfaces(s, &master, &slave, &x);
 *     for (;;) {
 *         contact_search_update(s, &x, NULL);
 *         contact_node_pairs_view p;
 *         contact_search_node_pairs_view(s, &p);   // p.slave[i], p.gap[i], p.normal[3 * i + k]
 *     }
 *     contact_search_destroy(s);
 */
#ifndef CONTACT_C_API_H
#define CONTACT_C_API_H
/* NOLINTBEGIN(modernize-use-using, modernize-deprecated-headers): C, also read by C++ */

#include <stdint.h>

#if defined(_WIN32)
#define CONTACT_C_API
#else
#define CONTACT_C_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Status codes ------------------------------------------------------------------------- */

typedef enum contact_status {
    CONTACT_OK = 0,
    CONTACT_ERROR_NULL_HANDLE = 1,  /* a handle argument is NULL */
    CONTACT_ERROR_NULL_POINTER = 2, /* a required array or output pointer is NULL */
    CONTACT_ERROR_INVALID_ARGUMENT =
        3, /* a value out of range: option, size, type, layout, field */
    CONTACT_ERROR_BUFFER_TOO_SMALL = 4, /* a caller's array holds fewer elements than needed */
    CONTACT_ERROR_INVALID_INPUT = 5,    /* surfaces refused (the message names surface, segment) */
    CONTACT_ERROR_UPDATE_FAILED = 6,    /* update refused the coordinates: see stats.status */
    CONTACT_ERROR_WRONG_MODE = 7,       /* node pairs asked of a segment search, or the reverse */
    CONTACT_ERROR_OUT_OF_ORDER = 8,     /* update before set_surfaces, pairs before an update */
    CONTACT_ERROR_FILE = 9,             /* a model file is unreadable: "<path>:<line>: ..." */
    CONTACT_ERROR_NOT_FOUND = 10,       /* no surface of that name, an index beyond the count */
    CONTACT_ERROR_OUT_OF_MEMORY = 11,
    CONTACT_ERROR_INTERNAL = 12 /* a bug: please report the message */
} contact_status;

/* Name of a status code ("ok", "null handle", ...); "unknown status" for other values. */
CONTACT_C_API const char* contact_status_name(int status);
/* Message of the last failing call on this thread ("" if none). */
CONTACT_C_API const char* contact_last_error(void);
/* Library version, "major.minor.patch". */
CONTACT_C_API const char* contact_version(void);

/* ---- Segments and coordinates ------------------------------------------------------------- */

/* Segment types (contact::SegmentType); node order gives an outward right-hand normal. */
enum {
    CONTACT_LINE2 = 0, /* 2D: 2 end nodes */
    CONTACT_LINE3 = 1, /* 2D: 2 end nodes, then the midside node */
    CONTACT_TRI3 = 2,  /* 3D: 3 corners */
    CONTACT_TRI6 = 3,  /* 3D: 3 corners, then midsides 1-2, 2-3, 3-1 */
    CONTACT_QUAD4 = 4, /* 3D: 4 corners counter-clockwise seen from outside */
    CONTACT_QUAD8 = 5, /* 3D: 4 corners, then midsides 1-2, 2-3, 3-4, 4-1 */
    CONTACT_QUAD9 = 6  /* 3D: as QUAD8, then the centre node */
};
#define CONTACT_MAX_SEGMENT_NODES 9
#define CONTACT_MAX_OVERLAP_VERTICES 16

/* Node count of a segment type, 0 for an unknown type. */
CONTACT_C_API int contact_segment_node_count(int32_t type);

/* One surface, as the caller keeps it; copied by contact_search_set_surfaces. */
typedef struct contact_surface {
    const char* name;     /* for messages; NULL: "master" / "slave" */
    int32_t num_segments; /* >= 0 */
    const int32_t* types; /* num_segments segment types (CONTACT_LINE2, ...) */
    /* num_segments + 1 entries: segment s has the nodes connectivity[offsets[s], offsets[s + 1]),
     * offsets[0] = 0 and offsets[num_segments] = connectivity_size. NULL: the segments lie back to
     * back, each with the node count of its type. */
    const int32_t* offsets;
    const int32_t* connectivity; /* 0-based node indices into the coordinates */
    int64_t connectivity_size;   /* entries in connectivity */
} contact_surface;

/* Coordinate layouts (contact::CoordinatesView); the data is read in place, never copied, and
 * must stay valid during the call it is passed to (nothing is kept after it). */
enum {
    CONTACT_LAYOUT_INTERLEAVED = 0, /* x0 y0 z0 x1 ... in x: C double xyz[n][3], Fortran x(3, n) */
    CONTACT_LAYOUT_SEPARATE = 1,    /* three arrays x, y, z of num_nodes values (z NULL in 2D) */
    CONTACT_LAYOUT_STRIDED = 2      /* node i's components at x[i * stride + c], c < dim */
};

typedef struct contact_coordinates {
    int32_t layout;    /* CONTACT_LAYOUT_* */
    int32_t dim;       /* 2 or 3 */
    int32_t num_nodes; /* >= 0 */
    int64_t stride;    /* STRIDED: doubles from one node to the next (>= dim); otherwise unused */
    const double* x;   /* SEPARATE: the x values; INTERLEAVED and STRIDED: node 0's x */
    const double* y;   /* SEPARATE only */
    const double* z;   /* SEPARATE only; NULL in 2D */
} contact_coordinates;

CONTACT_C_API contact_coordinates contact_coordinates_interleaved(const double* xyz,
                                                                  int32_t num_nodes, int32_t dim);
/* dim is 3 when z is not NULL, else 2. */
CONTACT_C_API contact_coordinates contact_coordinates_separate(const double* x, const double* y,
                                                               const double* z, int32_t num_nodes);
CONTACT_C_API contact_coordinates contact_coordinates_strided(const double* first, int64_t stride,
                                                              int32_t num_nodes, int32_t dim);

/* ---- The search --------------------------------------------------------------------------- */

typedef struct contact_search contact_search;

enum { CONTACT_MODE_NODE_TO_SEGMENT = 0, CONTACT_MODE_SEGMENT_TO_SEGMENT = 1 };
enum {
    CONTACT_BROAD_PHASE_KDTREE = 0,
    CONTACT_BROAD_PHASE_BOXTREE = 1,
    CONTACT_BROAD_PHASE_SWEEP = 2
};

/* contact::SearchOptions; fill with contact_search_options_default, then change fields. */
typedef struct contact_search_options {
    double capture;           /* capture distance: a length, or x mean master segment size */
    int32_t capture_relative; /* 1: capture is relative (default, 0.5), 0: a length */
    int32_t mode;             /* CONTACT_MODE_* */
    int32_t self_contact;     /* 1: master and slave may be one surface (see contact_search.hpp) */
    int32_t threads;          /* >= 1; results are identical for any count */
    double skin_relative;     /* Verlet skin x mean master segment size (default 0.1), >= 0 */
    int32_t broad_phase;      /* CONTACT_BROAD_PHASE_* (default SWEEP) */
    /* 1 (default): in node mode on curved masters, an update that reuses the candidate list starts
     * each closest point from the last one: the same pairs as a fresh search, values within
     * 1e-12 (contact::SearchOptions::warmStart); 0: every update equals a fresh search bit for
     * bit */
    int32_t warm_start;
} contact_search_options;

CONTACT_C_API void contact_search_options_default(contact_search_options* options);

/* Creates a search (options NULL: defaults). *search is set only on success. */
CONTACT_C_API int contact_search_create(const contact_search_options* options,
                                        contact_search** search);
/* Destroys a search; NULL is allowed. Views taken from it become invalid. */
CONTACT_C_API void contact_search_destroy(contact_search* search);
/* Message of the handle's last failing call ("" if none, "null handle" for NULL). */
CONTACT_C_API const char* contact_search_error(const contact_search* search);

/* Registers the surfaces (copied) and checks them against x (node count, finite coordinates,
 * degenerate segments): CONTACT_ERROR_INVALID_INPUT with the C++ message naming the surface and
 * segment. Clears the pairs: the next reading needs an update. */
CONTACT_C_API int contact_search_set_surfaces(contact_search* search, const contact_surface* master,
                                              const contact_surface* slave,
                                              const contact_coordinates* x);
/* Node-to-segment search of a slave given as node indices (an Abaqus TYPE=NODE surface). */
CONTACT_C_API int contact_search_set_surfaces_nodes(contact_search* search,
                                                    const contact_surface* master,
                                                    const int32_t* slave_nodes,
                                                    int32_t num_slave_nodes,
                                                    const contact_coordinates* x);

/* contact::UpdateStatus */
enum {
    CONTACT_UPDATE_OK = 0,
    CONTACT_UPDATE_NOT_SET_UP = 1,
    CONTACT_UPDATE_WRONG_NODE_COUNT = 2, /* node count or dimension differ from set_surfaces */
    CONTACT_UPDATE_BAD_COORDINATE_VIEW = 3,
    CONTACT_UPDATE_NON_FINITE_COORDINATES = 4,
    CONTACT_UPDATE_COORDINATES_OUT_OF_RANGE = 5,
    CONTACT_UPDATE_OUT_OF_MEMORY = 6, /* the call returns CONTACT_ERROR_OUT_OF_MEMORY; no pairs */
    CONTACT_UPDATE_DEGENERATE_SEGMENT = 7 /* a segment collapsed or folded (the message names it) */
};

/* contact::Orientation: how the surfaces face, judged from the pairs of an update */
enum {
    CONTACT_ORIENTATION_UNKNOWN = 0,           /* too few pairs to judge, or no clear majority */
    CONTACT_ORIENTATION_CONSISTENT = 1,        /* master and slave normals point at each other */
    CONTACT_ORIENTATION_MASTER_INSIDE_OUT = 2, /* the master faces into its solid (gap signs) */
    CONTACT_ORIENTATION_SLAVE_INSIDE_OUT = 3   /* the slave faces into its solid */
};

/* contact::UpdateStats */
typedef struct contact_update_stats {
    int32_t status;           /* CONTACT_UPDATE_* */
    int32_t rebuilt;          /* 1: the candidate list was rebuilt, 0: reused (Verlet list) */
    int32_t pairs;            /* contact pairs found */
    int32_t worst_projection; /* CONTACT_PROJECTION_*: worst status among the pairs */
    int32_t master_boxes;     /* master segments whose boxes were made (a reused list keeps the
                                 boxes of masters none of whose nodes moved) */
    int64_t list_size;        /* pairs in the candidate list */
    int64_t candidates;       /* buffered AABB overlaps */
    int64_t sat_survivors;    /* candidates whose buffered OBBs overlap */
    int64_t projections;      /* node mode: closest-point computations */
    double time_bounds;       /* milliseconds per stage */
    double time_broad;
    double time_narrow;
    double time_projection;
    /* contact::OrientationCheck: the verdict (CONTACT_ORIENTATION_*) and the judged pairs it was
     * taken from: normals opposed, normals aligned, and of the aligned ones the slave point in
     * front of the master or behind it */
    int32_t orientation;
    int32_t orientation_opposed;
    int32_t orientation_aligned;
    int32_t orientation_in_front;
    int32_t orientation_behind;
    int32_t fault_node;     /* as contact_search_fault_node, -1 if none */
    int32_t fault_segment;  /* CONTACT_UPDATE_DEGENERATE_SEGMENT: the segment, else -1 */
    int32_t fault_in_slave; /* 1: fault_segment is a slave segment, 0: a master segment */
} contact_update_stats;

/* Searches with the current coordinates. On CONTACT_ERROR_UPDATE_FAILED stats->status says why
 * and the pairs of the last successful update stay readable. stats may be NULL. */
CONTACT_C_API int contact_search_update(contact_search* search, const contact_coordinates* x,
                                        contact_update_stats* stats);

/* The node the last update failed on (non-finite or out-of-range coordinates, the corner where a
 * segment collapsed or folded: the node its CONTACT_ERROR_UPDATE_FAILED message names), 0-based;
 * -1 after a successful update, another failure (also arguments refused before the search ran)
 * or set_surfaces. */
CONTACT_C_API int contact_search_fault_node(const contact_search* search, int32_t* node);
/* The segment the last update found degenerate (CONTACT_UPDATE_DEGENERATE_SEGMENT), 0-based, and
 * *in_slave 1 when it is a slave segment, 0 a master segment; -1 and 0 after a successful update,
 * another failure or set_surfaces. in_slave may be NULL. */
CONTACT_C_API int contact_search_fault_segment(const contact_search* search, int32_t* segment,
                                               int32_t* in_slave);

/* Mode, capture and skin distances (lengths, resolved at set_surfaces), segment and node counts. */
CONTACT_C_API int contact_search_mode(const contact_search* search, int32_t* mode);
CONTACT_C_API int contact_search_capture_distance(const contact_search* search, double* capture);
CONTACT_C_API int contact_search_skin_distance(const contact_search* search, double* skin);
/* Slave nodes searched in node mode (sorted, unique), count then a copy into nodes[size]. */
CONTACT_C_API int contact_search_slave_node_count(const contact_search* search, int32_t* count);
CONTACT_C_API int contact_search_copy_slave_nodes(const contact_search* search, int32_t* nodes,
                                                  int64_t size);

/* ---- Pairs -------------------------------------------------------------------------------- */

/* contact::ProjectionStatus */
enum {
    CONTACT_PROJECTION_CONVERGED = 0,
    CONTACT_PROJECTION_ON_BOUNDARY = 1,
    CONTACT_PROJECTION_DEGENERATE = 2,
    CONTACT_PROJECTION_NOT_CONVERGED = 3
};

/* Pairs of the last successful update (CONTACT_ERROR_OUT_OF_ORDER before one). */
CONTACT_C_API int contact_search_pair_count(const contact_search* search, int32_t* count);

/* Fields of a pair for the copy functions; the width is the values per pair. */
enum {
    CONTACT_FIELD_SLAVE = 0,    /* int32: slave node (node mode) or slave segment (segment mode) */
    CONTACT_FIELD_MASTER = 1,   /* int32: master segment */
    CONTACT_FIELD_STATUS = 2,   /* int32: CONTACT_PROJECTION_*                      (node mode) */
    CONTACT_FIELD_GAP = 3,      /* double: (x_slave - point) . normal, < 0 penetration (node) */
    CONTACT_FIELD_DISTANCE = 4, /* double: |x_slave - point|                          (node) */
    CONTACT_FIELD_XI = 5,       /* double, 2: local coordinates on the master        (node) */
    CONTACT_FIELD_POINT = 6,    /* double, 3: closest point on the master            (node) */
    CONTACT_FIELD_NORMAL = 7,   /* double, 3: unit outward master normal             (node) */
    CONTACT_FIELD_TANGENT1 = 8, /* double, 3: unit tangent along dx/dxi              (node) */
    CONTACT_FIELD_TANGENT2 = 9, /* double, 3: normal x tangent1                      (node) */
    CONTACT_FIELD_SHAPE = 10    /* double, 9: master shape functions at xi, 0-padded (node) */
};
/* Values per pair of a field (1, 2, 3 or 9), 0 for an unknown field. */
CONTACT_C_API int contact_pair_field_width(int32_t field);

/* Copies one field of every pair into out (pair i's values at out[width * i + k]); size is the
 * length of out, at least count x width. Integer fields: SLAVE, MASTER, STATUS; the others are
 * doubles. The segment mode has SLAVE and MASTER only. */
CONTACT_C_API int contact_search_copy_index_field(const contact_search* search, int32_t field,
                                                  int32_t* out, int64_t size);
CONTACT_C_API int contact_search_copy_real_field(const contact_search* search, int32_t field,
                                                 double* out, int64_t size);

/* Pointers into the search's own arrays, no copy: valid until the next update, set_surfaces or
 * destroy of the search. Node mode. */
typedef struct contact_node_pairs_view {
    int32_t count;
    const int32_t* slave;   /* slave node */
    const int32_t* master;  /* master segment */
    const double* gap;      /* count values */
    const double* distance; /* count values */
    const uint8_t* status;  /* CONTACT_PROJECTION_* */
    const double* xi;       /* 2 per pair */
    const double* point;    /* 3 per pair */
    const double* normal;   /* 3 per pair */
    const double* tangent1; /* 3 per pair */
    const double* tangent2; /* 3 per pair */
    const double* shape;    /* CONTACT_MAX_SEGMENT_NODES per pair */
} contact_node_pairs_view;
CONTACT_C_API int contact_search_node_pairs_view(const contact_search* search,
                                                 contact_node_pairs_view* view);

/* Segment mode: (slave segment, master segment) pairs ordered by slave, then master. */
typedef struct contact_segment_pairs_view {
    int32_t count;
    const int32_t* slave;
    const int32_t* master;
} contact_segment_pairs_view;
CONTACT_C_API int contact_search_segment_pairs_view(const contact_search* search,
                                                    contact_segment_pairs_view* view);

/* The pairs as CSR by slave: rows are the nodes of the coordinates (node mode: at most one pair
 * per node) or the slave segments (segment mode); row r's pairs are the pair indices
 * offsets[r] .. offsets[r + 1] - 1, so the columns are the MASTER field (and every other field)
 * in pair order. contact_search_csr_rows gives the row count; offsets holds rows + 1 entries. */
CONTACT_C_API int contact_search_csr_rows(const contact_search* search, int32_t* rows);
CONTACT_C_API int contact_search_pairs_csr(const contact_search* search, int32_t* offsets,
                                           int64_t size);

/* ---- Segment mode: overlaps --------------------------------------------------------------- */

/* Clips every segment pair of the last successful update at the coordinates x (those of that
 * update; mesh_io::computeOverlaps) and cuts each overlap to its part in contact (gap <= the
 * capture distance, docs/design.md): the overlap's area, the areas in contact and penetrating
 * (lengths in 2D), and the centroid, gap range and drawing points of the part in contact. Pairs
 * without overlap are left out; *count is the number kept. On the search's threads (the same
 * overlaps for any count). */
CONTACT_C_API int contact_search_compute_overlaps(contact_search* search,
                                                  const contact_coordinates* x, int32_t* count);

/* The overlaps of the last contact_search_compute_overlaps, valid until the next call of it,
 * update, set_surfaces or destroy. */
typedef struct contact_overlaps_view {
    int32_t count;
    const int32_t* slave;           /* slave segment */
    const int32_t* master;          /* master segment */
    const double* overlap_area;     /* the whole overlap, whatever its gap */
    const double* capture_area;     /* its part with gap <= capture: in contact */
    const double* penetration_area; /* its part with gap < 0 */
    const double* centroid;         /* 3 per overlap: of the part in contact (NaN: none) */
    const double* gap_min;          /* gap range over the part in contact (NaN: none) */
    const double* gap_max;
    const int32_t* vertex_count; /* points drawing the part in contact (0: none) */
    const double* vertices;      /* 3 x CONTACT_MAX_OVERLAP_VERTICES per overlap */
} contact_overlaps_view;
CONTACT_C_API int contact_search_overlaps_view(const contact_search* search,
                                               contact_overlaps_view* view);

/* ---- Model files -------------------------------------------------------------------------- */

typedef struct contact_model contact_model;

/* Reads an Abaqus/CalculiX .inp, Gmsh .msh or Exodus II .e/.exo/.ex2 file (mesh_io::readModel).
 * CONTACT_ERROR_FILE with
 * "<path>:<line>: ..." for a bad file. */
CONTACT_C_API int contact_model_read(const char* path, contact_model** model);
CONTACT_C_API void contact_model_destroy(contact_model* model);
CONTACT_C_API const char* contact_model_error(const contact_model* model);

/* Node count; coordinates, 3 per node interleaved (z = 0 in 2D models), and the node ids as in
 * the file: pointers valid while the model lives. A 2D search reads them as
 * contact_coordinates_strided(xyz, 3, num_nodes, 2). */
CONTACT_C_API int contact_model_num_nodes(const contact_model* model, int32_t* count);
CONTACT_C_API int contact_model_coordinates(const contact_model* model, const double** xyz);
CONTACT_C_API int contact_model_node_ids(const contact_model* model, const int64_t** ids);

/* Named surfaces, index 0 .. count - 1. */
CONTACT_C_API int contact_model_surface_count(const contact_model* model, int32_t* count);
CONTACT_C_API int contact_model_surface_name(const contact_model* model, int32_t index,
                                             const char** name);

/* Interfaces: each *CONTACT PAIR and *TIE data line, and each search of general contact
 * (*CONTACT), in file order. */
enum {
    CONTACT_INTERFACE_CONTACT_PAIR = 0,
    CONTACT_INTERFACE_TIE = 1,
    CONTACT_INTERFACE_GENERAL_CONTACT = 2
};
typedef struct contact_interface_info {
    const char* name;  /* interaction or tie name ("" if none) */
    const char* slave; /* surface names */
    const char* master;
    int32_t kind; /* CONTACT_INTERFACE_* */
    int32_t mode; /* CONTACT_MODE_*: SURFACE TO SURFACE gives segment mode */
    /* 1: search it with contact_search_options.self_contact = 1 (general contact, whose slave
     * may be part of its master, or one surface as slave and master); else the slave's own faces
     * would pair with it at gap 0 */
    int32_t self_contact;
} contact_interface_info;
CONTACT_C_API int contact_model_interface_count(const contact_model* model, int32_t* count);
CONTACT_C_API int contact_model_interface(const contact_model* model, int32_t index,
                                          contact_interface_info* info);

/* A surface ready for the search (mesh_io::buildContactSurface: outward node order), built on the
 * first call for a surface and kept: pointers valid while the model lives. Where a node surface
 * and an element surface share the name (CalculiX), this gives the element surface;
 * contact_model_surface_kind reaches either. */
typedef struct contact_surface_info {
    const char* name;
    int32_t node_surface;       /* 1: TYPE=NODE, the slave nodes are in nodes; no segments */
    int32_t dim;                /* 2: line segments, 3: faces */
    contact_surface segments;   /* pass to contact_search_set_surfaces */
    const int64_t* element_ids; /* per segment: the element id as in the file */
    const int32_t* faces;       /* per segment: 1-based face (S1..S6; SNEG 1, SPOS 2; Gmsh 1) */
    int32_t num_nodes;          /* node surfaces: node indices (0-based) */
    const int32_t* nodes;
} contact_surface_info;
CONTACT_C_API int contact_model_surface(contact_model* model, const char* name,
                                        contact_surface_info* info);
/* The same, choosing between a node surface and an element surface of one name: nodes = 1 gives
 * the node surface, 0 the element surface; a name with one surface gives it for either value
 * (info->node_surface says which came). An interface's surfaces are those its search takes
 * (mesh_io::prepareInterface): the master with nodes = 0, the slave with nodes = 1 in node
 * mode (CONTACT_MODE_NODE_TO_SEGMENT) and 0 in segment mode or self-contact. */
CONTACT_C_API int contact_model_surface_kind(contact_model* model, const char* name, int32_t nodes,
                                             contact_surface_info* info);

#ifdef __cplusplus
}
#endif

/* NOLINTEND(modernize-use-using, modernize-deprecated-headers) */
#endif /* CONTACT_C_API_H */
