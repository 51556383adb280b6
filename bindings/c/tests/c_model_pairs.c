/* SPDX-License-Identifier: MIT */
/* Runs the search on a model file through the C API and writes the pairs as the contact-search
 * tool's --pairs CSV does (ids as in the file, %.17g), so that a test compares the two files byte
 * for byte. Same choices as the tool: every *CONTACT PAIR / *TIE of the file, or the named
 * surfaces; capture 0.5 x mean master segment size; self-contact when master is slave.
 * Usage: c_model_pairs MODEL OUT.csv [--master NAME --slave NAME] [--mode node|segment] */
#include "contact/c_api.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRY(call)                                                                                  \
    do {                                                                                           \
        if ((call) != CONTACT_OK) {                                                                \
            fprintf(stderr, "c_model_pairs: %s\n", contact_last_error());                          \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

static void* alloc(size_t n) {
    void* p = malloc(n > 0 ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "c_model_pairs: out of memory\n");
        exit(2);
    }
    return p;
}

/* Searches one interface and appends its rows. */
static void search_interface(contact_model* model, FILE* out, int index, const char* master_name,
                             const char* slave_name, int mode, int self_contact) {
    contact_surface_info master;
    contact_surface_info slave;
    /* The surfaces the tool searches where a node surface and an element surface share a name
     * (mesh_io::prepareInterface): the node surface as slave in node mode, else the element one. */
    TRY(contact_model_surface_kind(model, master_name, 0, &master));
    TRY(contact_model_surface_kind(model, slave_name, mode == CONTACT_MODE_NODE_TO_SEGMENT,
                                   &slave));
    int32_t n = 0;
    const double* xyz = NULL;
    const int64_t* ids = NULL;
    TRY(contact_model_num_nodes(model, &n));
    TRY(contact_model_coordinates(model, &xyz));
    TRY(contact_model_node_ids(model, &ids));
    const contact_coordinates x = master.dim == 3 ? contact_coordinates_interleaved(xyz, n, 3)
                                                  : contact_coordinates_strided(xyz, 3, n, 2);
    contact_search_options opt;
    contact_search_options_default(&opt);
    opt.mode = mode;
    opt.self_contact = self_contact;
    contact_search* s = NULL;
    TRY(contact_search_create(&opt, &s));
    if (slave.node_surface) {
        TRY(contact_search_set_surfaces_nodes(s, &master.segments, slave.nodes, slave.num_nodes,
                                              &x));
    } else {
        TRY(contact_search_set_surfaces(s, &master.segments, &slave.segments, &x));
    }
    TRY(contact_search_update(s, &x, NULL));
    int32_t count = 0;
    TRY(contact_search_pair_count(s, &count));
    int32_t* sl = alloc(sizeof(int32_t) * (size_t)count);
    int32_t* ma = alloc(sizeof(int32_t) * (size_t)count);
    TRY(contact_search_copy_index_field(s, CONTACT_FIELD_SLAVE, sl, count));
    TRY(contact_search_copy_index_field(s, CONTACT_FIELD_MASTER, ma, count));
    if (mode == CONTACT_MODE_NODE_TO_SEGMENT) {
        double* xi = alloc(sizeof(double) * 2 * (size_t)count);
        double* gap = alloc(sizeof(double) * (size_t)count);
        double* normal = alloc(sizeof(double) * 3 * (size_t)count);
        TRY(contact_search_copy_real_field(s, CONTACT_FIELD_XI, xi, 2 * (int64_t)count));
        TRY(contact_search_copy_real_field(s, CONTACT_FIELD_GAP, gap, count));
        TRY(contact_search_copy_real_field(s, CONTACT_FIELD_NORMAL, normal, 3 * (int64_t)count));
        for (ptrdiff_t i = 0; i < count; ++i) {
            fprintf(out, "%d,%lld,%lld,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", index,
                    (long long)ids[sl[i]], (long long)master.element_ids[ma[i]],
                    master.faces[ma[i]], xi[2 * i], xi[2 * i + 1], gap[i], normal[3 * i],
                    normal[3 * i + 1], normal[3 * i + 2]);
        }
        free(xi);
        free(gap);
        free(normal);
    } else {
        /* Overlaps come in the pairs' order, pairs without one left out: walk both. */
        int32_t no = 0;
        TRY(contact_search_compute_overlaps(s, &x, &no));
        contact_overlaps_view ov;
        TRY(contact_search_overlaps_view(s, &ov));
        int32_t k = 0;
        for (int32_t i = 0; i < count; ++i) {
            const int has = k < ov.count && ov.slave[k] == sl[i] && ov.master[k] == ma[i];
            fprintf(out, "%d,%lld,%d,%lld,%d,%.17g,%.17g,%.17g\n", index,
                    (long long)slave.element_ids[sl[i]], slave.faces[sl[i]],
                    (long long)master.element_ids[ma[i]], master.faces[ma[i]],
                    has ? ov.overlap_area[k] : 0.0, has ? ov.capture_area[k] : 0.0,
                    has ? ov.penetration_area[k] : 0.0);
            k += has;
        }
        if (k != ov.count) {
            fprintf(stderr, "c_model_pairs: %d overlaps, %d matched to pairs\n", ov.count, k);
            exit(1);
        }
    }
    free(sl);
    free(ma);
    contact_search_destroy(s);
}

int main(int argc, char** argv) {
    const char* master = NULL;
    const char* slave = NULL;
    int mode = -1;
    if (argc < 3) {
        fprintf(stderr, "usage: c_model_pairs MODEL OUT.csv [--master NAME --slave NAME] "
                        "[--mode node|segment]\n");
        return 2;
    }
    for (int i = 3; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--master") == 0) {
            master = argv[i + 1];
        } else if (strcmp(argv[i], "--slave") == 0) {
            slave = argv[i + 1];
        } else if (strcmp(argv[i], "--mode") == 0) {
            mode = strcmp(argv[i + 1], "segment") == 0 ? CONTACT_MODE_SEGMENT_TO_SEGMENT
                                                       : CONTACT_MODE_NODE_TO_SEGMENT;
        } else {
            fprintf(stderr, "c_model_pairs: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    contact_model* model = NULL;
    TRY(contact_model_read(argv[1], &model));
    FILE* out = fopen(argv[2], "w");
    if (out == NULL) {
        fprintf(stderr, "c_model_pairs: cannot write %s\n", argv[2]);
        return 2;
    }
    if (master != NULL && slave != NULL) {
        fprintf(out, mode == CONTACT_MODE_SEGMENT_TO_SEGMENT
                         ? "interface,slave_element,slave_face,master_element,master_face,"
                           "overlap_area,capture_area,penetration_area\n"
                         : "interface,slave_node,master_element,master_face,xi,eta,gap,nx,ny,nz\n");
        search_interface(model, out, 1, master, slave,
                         mode < 0 ? CONTACT_MODE_NODE_TO_SEGMENT : mode,
                         strcmp(master, slave) == 0);
    } else {
        int32_t count = 0;
        TRY(contact_model_interface_count(model, &count));
        for (int32_t i = 0; i < count; ++i) {
            contact_interface_info itf;
            TRY(contact_model_interface(model, i, &itf));
            const int m = mode < 0 ? itf.mode : mode;
            if (i == 0) {
                fprintf(out, m == CONTACT_MODE_SEGMENT_TO_SEGMENT
                                 ? "interface,slave_element,slave_face,master_element,master_face,"
                                   "overlap_area,capture_area,penetration_area\n"
                                 : "interface,slave_node,master_element,master_face,xi,eta,gap,nx,"
                                   "ny,nz\n");
            }
            search_interface(model, out, i + 1, itf.master, itf.slave, m, itf.self_contact);
        }
    }
    fclose(out);
    contact_model_destroy(model);
    return 0;
}
