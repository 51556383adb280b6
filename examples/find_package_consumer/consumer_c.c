/* SPDX-License-Identifier: MIT */
/* Built against the installed package from C: one master edge, two slave nodes 0.1 above it. */
#include <contact/c_api.h>
#include <math.h>
#include <stdio.h>

int main(void) {
    /* master 1 -> 0 along -x: its normal (the direction turned clockwise) points up, +y */
    const double xy[] = {0.0, 0.0, 1.0, 0.0, 0.0, 0.1, 1.0, 0.1};
    const int32_t type[] = {CONTACT_LINE2};
    const int32_t master_nodes[] = {1, 0};
    const int32_t slave_nodes[] = {2, 3};
    const contact_surface master = {"edge", 1, type, NULL, master_nodes, 2};
    const contact_coordinates x = contact_coordinates_interleaved(xy, 4, 2);
    contact_search* s = NULL;
    contact_node_pairs_view p;
    int ok = contact_search_create(NULL, &s) == CONTACT_OK &&
             contact_search_set_surfaces_nodes(s, &master, slave_nodes, 2, &x) == CONTACT_OK &&
             contact_search_update(s, &x, NULL) == CONTACT_OK &&
             contact_search_node_pairs_view(s, &p) == CONTACT_OK;
    ok = ok && p.count == 2 && fabs(p.gap[0] - 0.1) < 1e-15 && fabs(p.gap[1] - 0.1) < 1e-15;
    if (!ok) {
        printf("%s\n", contact_last_error());
    }
    contact_search_destroy(s);
    printf("consumer_c: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
