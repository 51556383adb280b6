! SPDX-License-Identifier: MIT
! Built against the installed package from Fortran: the same edge and nodes as consumer_c.c,
! numbered from 1.
program consumer_fortran
    use, intrinsic :: iso_c_binding, only: c_double, c_int32_t
    use contact
    implicit none
    real(c_double) :: xy(2, 4), gap(2)
    integer(c_int32_t) :: slave(2), master(2)
    type(contact_search) :: s
    integer :: ierr, n
    logical :: ok
    xy = reshape([0.0_c_double, 0.0_c_double, 1.0_c_double, 0.0_c_double, &
                  0.0_c_double, 0.1_c_double, 1.0_c_double, 0.1_c_double], [2, 4])
    call contact_create(s, ierr)
    call contact_set_surfaces_nodes(s, [CONTACT_LINE2], [2_c_int32_t, 1_c_int32_t], &
                                    [3_c_int32_t, 4_c_int32_t], xy, ierr)
    if (ierr == CONTACT_OK) call contact_update(s, xy, ierr)
    if (ierr == CONTACT_OK) call contact_pair_count(s, n, ierr)
    if (ierr == CONTACT_OK) call contact_get_pairs(s, slave, master, ierr, gap=gap)
    ok = ierr == CONTACT_OK .and. n == 2 .and. all(slave == [3, 4]) .and. all(master == 1) .and. &
        all(abs(gap - 0.1_c_double) < 1e-15_c_double)
    if (.not. ok) write (*, '(A)') contact_last_error()
    call contact_destroy(s)
    write (*, '(A)') 'consumer_fortran: ' // merge('OK    ', 'FAILED', ok)
    if (.not. ok) stop 1
end program consumer_fortran
