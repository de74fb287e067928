! hpf_example.f90 -- the HPF excerpt of SCALA/P3T (seed 001, section 4):
! a one-dimensional array A of size n2 is block-distributed over a
! processor array PR of size p, and the doubly nested loop writes A(J2)
! only while J2 <= n2, so the work of processor k is the number of
! integer solutions of 1 <= J1 <= n1, 1 <= J2 <= J1*n1, J2 <= n2 with J2 in
! k's block. The HPF directives are comments to a Fortran 90 compiler, so
! the program also runs serially.
program hpf_example
  implicit none
  integer, parameter :: n1 = 8, n2 = 40, p = 4
  !mk$ param n1 = 8
  !mk$ param n2 = 40
  !mk$ assume mod(n2, p) == 0
  integer :: a(n2), b(n2)
  integer :: j1, j2
!hpf$ processors :: pr(p)
!hpf$ distribute (block) onto pr :: a
!hpf$ align b(i) with a(i)
  a = 0
  b = 1
  do j1 = 1, n1
!hpf$ independent
    do j2 = 1, j1*n1
      if (j2 <= n2) then
        a(j2) = a(j2) + b(j2)*j1
      end if
    end do
  end do
  print *, 'sum of A =', sum(a)
end program hpf_example
