! SPDX-License-Identifier: MIT
! Writes g17() of the sequence of doubles g17_values.c writes with printf("%.17g").
! Usage: g17_values_f OUT COUNT
program g17_values
    use, intrinsic :: iso_c_binding, only: c_double, c_int64_t
    use g17_format, only: g17
    implicit none
    integer(c_int64_t) :: state, hi, mid, lo, bits
    character(len=256) :: path, arg
    integer :: count, i, j, k, unit, ios
    real(c_double) :: v, r, scale
    state = 12345
    if (command_argument_count() /= 2) then
        write (*, '(A)') 'usage: g17_values_f OUT COUNT'
        stop 2
    end if
    call get_command_argument(1, path)
    call get_command_argument(2, arg)
    read (arg, *, iostat=ios) count
    open (newunit=unit, file=trim(path), status='replace', action='write', iostat=ios)
    if (ios /= 0 .or. count <= 0) then
        write (*, '(A)') 'g17_values_f: cannot write ' // trim(path) // ' or bad count'
        stop 2
    end if
    do i = 1, count
        hi = next()
        mid = next()
        lo = mod(next(), 4_c_int64_t)
        bits = ior(ior(shiftl(hi, 33), shiftl(mid, 2)), lo)
        v = transfer(bits, v)
        write (unit, '(A)') g17(v)
    end do
    do i = 1, count
        r = real(next(), c_double) / 2147483647.0_c_double
        k = int(mod(next(), 27_c_int64_t)) - 7
        scale = 1
        do j = 1, k
            scale = scale * 10.0_c_double
        end do
        do j = -1, k, -1
            scale = scale / 10.0_c_double
        end do
        write (unit, '(A)') g17(r * scale)
    end do
    close (unit)

contains

    ! Park and Miller's minimal standard generator: 1 .. 2^31 - 2.
    function next() result(x)
        integer(c_int64_t) :: x
        state = mod(16807_c_int64_t * state, 2147483647_c_int64_t)
        x = state
    end function

end program g17_values
