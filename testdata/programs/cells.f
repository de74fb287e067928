c     A diagonal multi-partition: q*q processes, each owning q cells of
c     a q x q x q grid of cells, one in every plane; a sweep visits a
c     process's cells plane by plane (the cell of a plane found through
c     the inverse of the coordinate map), receiving the face of the cell
c     before from the predecessor. The coordinates step round rings of q
c     with MOD, so each is a remainder of remainders of the rank.
      program cells
      include 'mpif.h'
      integer np, me, ierr, q, c, d, k, i, j, stage, n, sz, ex
      integer ic, jc, pred, nface, nwest
      integer coord(3,16), csize(3,16), cfirst(3,16), order(3,16)
      integer status(MPI_STATUS_SIZE)
      double precision u(4096), face(256), s
      call mpi_init(ierr)
      call mpi_comm_size(mpi_comm_world, np, ierr)
      call mpi_comm_rank(mpi_comm_world, me, ierr)
      n = 29
      q = int(sqrt(dble(np) + 0.00001d0))
      coord(1,1) = mod(me, q)
      coord(2,1) = me/q
      coord(3,1) = 0
      do c = 2, q
         coord(1,c) = mod(coord(1,c-1)+1, q)
         coord(2,c) = mod(coord(2,c-1)-1+q, q)
         coord(3,c) = c-1
      end do
      do d = 1, 3
         do c = 1, q
            coord(d,c) = coord(d,c) + 1
            order(d,coord(d,c)) = c
         end do
      end do
      do d = 1, 3
         sz = n/q
         ex = mod(n, q)
         do c = 1, q
            if (coord(d,c) .le. ex) then
               csize(d,c) = sz + 1
               cfirst(d,c) = (coord(d,c)-1)*(sz+1)
            else
               csize(d,c) = sz
               cfirst(d,c) = ex*(sz+1) + (coord(d,c)-ex-1)*sz
            end if
         end do
      end do
c     The faces a process sends west: those of its cells not on the
c     west boundary, summed (a value per rank, of many values).
      nwest = 0
      do c = 1, q
         if (coord(1,c) .ne. 1) then
            nwest = nwest + csize(2,c)*csize(3,c)
         end if
      end do
      do i = 1, nwest
         face(1 + mod(i, 256)) = i
      end do
      s = 0
      do stage = 1, q
         c = order(3,stage)
         ic = coord(1,c) - 1
         jc = coord(2,c) - 1
         nface = csize(1,c)*csize(2,c)
         pred = mod(ic-1+q, q) + q*mod(jc+1, q)
         if (stage .ne. 1) then
            call mpi_recv(face, nface, MPI_DOUBLE_PRECISION, pred,
     >                    1, mpi_comm_world, status, ierr)
         end if
         do k = 1, csize(3,c)
            do j = 1, csize(2,c)
               do i = 1, csize(1,c)
                  u(i + 16*j) = u(i + 16*j) + s + k
               end do
            end do
         end do
      end do
      print *, s
      call mpi_finalize(ierr)
      end
