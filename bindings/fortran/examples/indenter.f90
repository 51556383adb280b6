! SPDX-License-Identifier: MIT
! The solver loop of examples/indenter.cpp in Fortran: a rigid indenter (sphere in 3D, cylinder in
! 2D) pressed into a block over 20 increments; every increment moves the indenter, updates the
! search and pushes penetrating block nodes back along the contact normal. Same scene, same
! arithmetic: with --dump it writes the pairs exactly as `indenter --dump` does (0-based indices
! there, as in the C++ API), and a test compares the two files byte for byte.
!
! Node k of this program is node k - 1 of the C++ one: every number here is 1-based.
! Usage: indenter_fortran [--dim 2|3] [--threads N] [--dump FILE [--force]]
program indenter
    use, intrinsic :: iso_c_binding, only: c_double, c_int32_t
    use contact
    use g17_format, only: g17
    implicit none
    real(c_double), parameter :: R = 1.0_c_double, start = 0.02_c_double, step = 0.005_c_double
    real(c_double), allocatable :: coords(:, :), gap(:), normal(:, :), xi(:, :)
    integer(c_int32_t), allocatable :: block_types(:), block_nodes(:), tool_types(:)
    integer(c_int32_t), allocatable :: tool_nodes(:), slave(:), master(:)
    integer, allocatable :: moving(:)
    integer :: dim, threads, inc, i, n, ierr, penetrating, unit, num_nodes, added
    character(len=512) :: arg, val, dump_path
    logical :: force, exists, dumping
    type(contact_search) :: search
    type(contact_stats) :: st
    real(c_double) :: min_gap, capture

    dim = 3
    threads = 1
    dump_path = ''
    force = .false.
    i = 1
    do while (i <= command_argument_count())
        call get_command_argument(i, arg)
        select case (trim(arg))
        case ('--dim', '--threads', '--dump')
            if (i == command_argument_count()) call usage()
            call get_command_argument(i + 1, val)
            ierr = 0
            if (trim(arg) == '--dim') read (val, *, iostat=ierr) dim
            if (trim(arg) == '--threads') read (val, *, iostat=ierr) threads
            if (trim(arg) == '--dump') dump_path = val
            if (ierr /= 0) call usage()
            i = i + 2
        case ('--force')
            force = .true.
            i = i + 1
        case default
            call usage()
        end select
    end do
    if ((dim /= 2 .and. dim /= 3) .or. threads < 1) call usage()
    if (dim == 3) then
        call model_3d(40)
    else
        call model_2d(200)
    end if
    num_nodes = size(coords, 2)

    dumping = len_trim(dump_path) > 0
    if (dumping) then
        inquire (file=trim(dump_path), exist=exists)
        if (exists .and. .not. force) then
            write (*, '(A)') 'indenter_fortran: ' // trim(dump_path) // &
                ' exists; pass --force to replace it'
            stop 2
        end if
        open (newunit=unit, file=trim(dump_path), status='replace', action='write', iostat=ierr)
        if (ierr /= 0) then
            write (*, '(A)') 'indenter_fortran: cannot write ' // trim(dump_path)
            stop 2
        end if
        write (unit, '(A)') '# increment slave_node master_segment gap xi eta nx ny nz ' // &
            '(0-based indices)'
    end if

    call contact_create(search, ierr, capture=0.5_c_double, capture_relative=.true., &
                        skin_relative=0.2_c_double, threads=threads)
    call check('contact_create')
    ! The indenter is the master, the block's top the slave; 2D reads the 3-row coordinates
    ! in place as 2D points (dim=2).
    call contact_set_surfaces(search, tool_types, tool_nodes, block_types, block_nodes, coords, &
                              ierr, dim=dim)
    call check('contact_set_surfaces')
    call contact_capture_distance(search, capture, ierr)
    call check('contact_capture_distance')
    write (*, '(A,I0,A,I0,A,ES11.4)') 'indenter: ', size(tool_types), ' master segments, ', &
        size(block_types), ' slave segments, capture distance ', capture
    write (*, '(A)') ' inc   pairs  penetrating     min gap  rebuilt'

    allocate (slave(num_nodes), master(num_nodes), gap(num_nodes), normal(3, num_nodes), &
              xi(2, num_nodes))
    min_gap = 0
    do inc = 1, 20
        coords(dim, moving) = coords(dim, moving) - step  ! z in 3D, y in 2D
        call contact_update(search, coords, ierr, stats=st, dim=dim)
        call check('contact_update')
        call contact_pair_count(search, n, ierr)
        call check('contact_pair_count')
        call contact_get_pairs(search, slave, master, ierr, gap=gap, normal=normal, xi=xi)
        call check('contact_get_pairs')
        if (dumping) then
            do i = 1, n
                write (unit, '(A)') itoa(inc) // ' ' // itoa(slave(i) - 1) // ' ' // &
                    itoa(master(i) - 1) // ' ' // g17(gap(i)) // ' ' // g17(xi(1, i)) // ' ' &
                    // g17(xi(2, i)) // ' ' // g17(normal(1, i)) // ' ' // g17(normal(2, i)) &
                    // ' ' // g17(normal(3, i))
            end do
        end if
        penetrating = count(gap(1:n) < 0)
        min_gap = 0
        if (n > 0) min_gap = minval(gap(1:n))
        write (*, '(I4,I8,I13,F12.5,A9)') inc, n, penetrating, min_gap, &
            merge('      yes', '       no', st%rebuilt == 1)
        if (inc == 20) exit
        ! Penalty response: each penetrating block node moves back 90% of its penetration.
        do i = 1, n
            if (gap(i) < 0) then
                coords(:, slave(i)) = coords(:, slave(i)) - (0.9_c_double * gap(i)) * normal(:, i)
            end if
        end do
    end do
    if (dumping) close (unit)
    call contact_destroy(search)
    ! Main-program arrays outlive `end program`: freed here so that leak checkers see none.
    deallocate (coords, gap, normal, xi, block_types, block_nodes, tool_types, tool_nodes, slave, &
                master, moving)
    if (n > 0 .and. min_gap < 0) then
        write (*, '(A)') 'report: OK'
    else
        write (*, '(A)') 'report: UNEXPECTED RESULT'
        stop 1
    end if

contains

    subroutine usage()
        write (*, '(A)') 'usage: indenter_fortran [--dim 2|3] [--threads N] [--dump FILE [--force]]'
        stop 2
    end subroutine

    subroutine check(what)
        character(len=*), intent(in) :: what
        if (ierr /= CONTACT_OK) then
            write (*, '(A)') 'indenter_fortran: ' // what // ': ' // contact_last_error()
            stop 1
        end if
    end subroutine

    function itoa(k) result(s)
        integer, intent(in) :: k
        character(len=:), allocatable :: s
        character(len=16) :: buf
        write (buf, '(I0)') k
        s = trim(buf)
    end function

    ! Sets the next node of coords (allocated for all of them) and returns its number.
    function add_node(x, y, z) result(k)
        real(c_double), intent(in) :: x, y, z
        integer :: k
        added = added + 1
        k = added
        coords(:, k) = [x, y, z]
    end function

    ! 3D: the block's top z = 0 over [-1, 1]^2 as n x n Quad4 (normal +z); a sphere cap of
    ! radius R above it as 8 x 8 Quad9 faces, normal out of the sphere (down).
    subroutine model_3d(nb)
        integer, intent(in) :: nb
        integer, parameter :: k = 8, gk = 2 * k + 1
        real(c_double), parameter :: half = 0.6_c_double
        integer :: g((nb + 1) * (nb + 1)), s(gk * gk), a, b, e, c
        real(c_double) :: x, y, z
        allocate (coords(3, (nb + 1) * (nb + 1) + gk * gk))
        added = 0
        do a = 0, nb
            do b = 0, nb
                g(a * (nb + 1) + b + 1) = add_node(-1.0_c_double + 2.0_c_double * a / nb, &
                                                   -1.0_c_double + 2.0_c_double * b / nb, 0.0_c_double)
            end do
        end do
        allocate (block_types(nb * nb), block_nodes(4 * nb * nb))
        block_types = CONTACT_QUAD4
        e = 0
        do a = 0, nb - 1
            do b = 0, nb - 1
                block_nodes(4 * e + 1:4 * e + 4) = [g(a * (nb + 1) + b + 1), &
                    g((a + 1) * (nb + 1) + b + 1), g((a + 1) * (nb + 1) + b + 2), &
                    g(a * (nb + 1) + b + 2)]
                e = e + 1
            end do
        end do
        allocate (moving(gk * gk))
        do a = 0, gk - 1
            do b = 0, gk - 1
                x = -half + 2 * half * a / (gk - 1)
                y = -half + 2 * half * b / (gk - 1)
                z = start + R - sqrt(R * R - x * x - y * y)
                s(a * gk + b + 1) = add_node(x, y, z)
                moving(a * gk + b + 1) = s(a * gk + b + 1)
            end do
        end do
        allocate (tool_types(k * k), tool_nodes(9 * k * k))
        tool_types = CONTACT_QUAD9
        e = 0
        do a = 0, k - 1
            do b = 0, k - 1
                ! counter-clockwise seen from below (outside the sphere): normal points down;
                ! node (2a + i, 2b + j) of the grid is s(c + i * gk + j)
                c = 2 * a * gk + 2 * b + 1
                tool_nodes(9 * e + 1:9 * e + 9) = [s(c), s(c + 2), s(c + 2 * gk + 2), &
                    s(c + 2 * gk), s(c + 1), s(c + gk + 2), s(c + 2 * gk + 1), s(c + gk), &
                    s(c + gk + 1)]
                e = e + 1
            end do
        end do
    end subroutine

    ! 2D: the block's top edge y = 0 from x = 1 to -1 as n Line2 (normal +y); a cylinder arc of
    ! radius R above it as 16 Line3 segments, normal out of the cylinder (down).
    subroutine model_2d(nb)
        integer, intent(in) :: nb
        integer, parameter :: k = 16
        real(c_double), parameter :: half = 0.6_c_double
        integer :: g(nb + 1), s(2 * k + 1), a
        real(c_double) :: x
        allocate (coords(3, nb + 1 + 2 * k + 1))
        added = 0
        do a = 0, nb
            g(a + 1) = add_node(1.0_c_double - 2.0_c_double * a / nb, 0.0_c_double, 0.0_c_double)
        end do
        allocate (block_types(nb), block_nodes(2 * nb))
        block_types = CONTACT_LINE2
        do a = 0, nb - 1
            block_nodes(2 * a + 1:2 * a + 2) = [g(a + 1), g(a + 2)]
        end do
        allocate (moving(2 * k + 1))
        do a = 0, 2 * k
            x = -half + half * a / k
            s(a + 1) = add_node(x, start + R - sqrt(R * R - x * x), 0.0_c_double)
            moving(a + 1) = s(a + 1)
        end do
        allocate (tool_types(k), tool_nodes(3 * k))
        tool_types = CONTACT_LINE3
        do a = 0, k - 1
            ! left to right along the bottom of a counter-clockwise cylinder: normal points down
            tool_nodes(3 * a + 1:3 * a + 3) = [s(2 * a + 1), s(2 * a + 3), s(2 * a + 2)]
        end do
    end subroutine

end program indenter
