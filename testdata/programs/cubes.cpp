// A proxy application's shape, as LULESH and its kin write it: options
// matched with strcmp in a while loop, a domain class whose loops test a
// getter, a cube process grid from cbrt (a slab decomposition where P is
// not a cube), a mesh edge from pow, and a time loop that ends on a
// floating-point clock or a cycle limit, whichever comes first.
#include <mpi.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

struct Opts {
  int its;
  int nx;
  int progress;
};

static void parseOptions(int argc, char *argv[], int rank, Opts *o) {
  int i = 1;
  while (i < argc) {
    if (strcmp(argv[i], "-i") == 0 && i + 1 < argc) {
      o->its = atoi(argv[i + 1]);
      i += 2;
    } else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
      o->nx = atoi(argv[i + 1]);
      i += 2;
    } else if (strcmp(argv[i], "-p") == 0) {
      o->progress = 1;
      i++;
    } else {
      if (rank == 0) printf("unknown option %s\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
}

class Mesh {
public:
  Mesh(int edge, int planes, int plane) : m_edge(edge), m_planes(planes), m_plane(plane) {
    m_numElem = edge * edge * edge / planes;
    if (plane < edge * edge * edge % planes) m_numElem++;
    m_e.resize(m_numElem);
    m_face.resize(edge * edge);
    for (int i = 0; i < numElem(); ++i) m_e[i] = 1.0;
  }
  int numElem() const { return m_numElem; }
  int faceSize() const { return (int)m_face.size(); }
  double &e(int i) { return m_e[i]; }
  double &face(int i) { return m_face[i]; }
  int plane() const { return m_plane; }
  int planes() const { return m_planes; }

private:
  int m_edge, m_planes, m_plane, m_numElem;
  std::vector<double> m_e, m_face;
};

static void exchange(Mesh &m) {
  MPI_Request req[2];
  int n = 0;
  std::vector<double> in(m.faceSize());
  if (m.plane() > 0) {
    for (int i = 0; i < m.faceSize(); ++i) m.face(i) = m.e(i % m.numElem());
    MPI_Isend(&m.face(0), m.faceSize(), MPI_DOUBLE, m.plane() - 1, 0, MPI_COMM_WORLD, &req[n++]);
  }
  if (m.plane() < m.planes() - 1)
    MPI_Irecv(in.data(), m.faceSize(), MPI_DOUBLE, m.plane() + 1, 0, MPI_COMM_WORLD, &req[n++]);
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

static void update(Mesh &m, double dt) {
  for (int k = 0; k < m.numElem(); ++k)
    m.e(k) = m.e(k) * (1.0 - dt) + dt;
}

int main(int argc, char *argv[]) {
  int size, rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  Opts o;
  o.its = 1000;
  o.nx = 12;
  o.progress = 0;
  parseOptions(argc, argv, rank, &o);
  int side = int(cbrt(double(size)) + 0.5);
  int planes = size;
  if (side * side * side == size) planes = side; // a cube: one plane of the grid per side
  int plane = rank % planes;
  int edge = (int)(pow(double(o.nx * o.nx * o.nx), 1.0 / 3.0) + 0.5);
  Mesh *mesh = new Mesh(edge, planes, plane);
  double t = 0.0, stop = 1.0e-2, dt = 1.0e-3;
  int cycle = 0;
  while (t < stop && cycle < o.its) {
    exchange(*mesh);
    update(*mesh, dt);
    t += dt;
    cycle++;
    if (o.progress && rank == 0) printf("cycle %d\n", cycle);
  }
  double e = mesh->e(0), g;
  MPI_Reduce(&e, &g, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%g\n", g);
  delete mesh;
  MPI_Finalize();
  return 0;
}
