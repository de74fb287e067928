package llvmir

import (
	"os"
	"path/filepath"
)

// OpenMP in hybrid programs. The directives are not compiled (no
// -fopenmp): a parallel loop is counted as the loop it is and its MPI calls
// as they are. The runtime routines a program calls (omp_get_max_threads
// for a thread count, omp_get_wtime for a timer) are routines of a library,
// so their declarations are all clang needs. GCC's omp.h, the one a
// program built with mpicc finds, uses attributes clang 14 refuses; this
// header declares the OpenMP 5.0 runtime routines (OpenMP API 5.0, section
// 3) and is searched after the system's, so an installed libomp's wins.
const ompHeader = `#ifndef MKVET_OMP_H
#define MKVET_OMP_H
#ifdef __cplusplus
extern "C" {
#endif
typedef struct { void *p[2]; } omp_lock_t;
typedef struct { void *p[2]; } omp_nest_lock_t;
typedef enum omp_sched_t { omp_sched_static = 1, omp_sched_dynamic = 2, omp_sched_guided = 3, omp_sched_auto = 4 } omp_sched_t;
typedef enum omp_proc_bind_t { omp_proc_bind_false = 0, omp_proc_bind_true = 1, omp_proc_bind_master = 2,
	omp_proc_bind_close = 3, omp_proc_bind_spread = 4 } omp_proc_bind_t;
typedef enum omp_lock_hint_t { omp_lock_hint_none = 0 } omp_lock_hint_t;
void omp_set_num_threads(int);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int);
int omp_get_dynamic(void);
int omp_get_cancellation(void);
void omp_set_nested(int);
int omp_get_nested(void);
void omp_set_schedule(omp_sched_t, int);
void omp_get_schedule(omp_sched_t *, int *);
int omp_get_thread_limit(void);
void omp_set_max_active_levels(int);
int omp_get_max_active_levels(void);
int omp_get_level(void);
int omp_get_ancestor_thread_num(int);
int omp_get_team_size(int);
int omp_get_active_level(void);
int omp_in_final(void);
omp_proc_bind_t omp_get_proc_bind(void);
int omp_get_num_places(void);
int omp_get_place_num(void);
void omp_set_default_device(int);
int omp_get_default_device(void);
int omp_get_num_devices(void);
int omp_get_num_teams(void);
int omp_get_team_num(void);
int omp_is_initial_device(void);
int omp_get_initial_device(void);
int omp_get_max_task_priority(void);
void omp_init_lock(omp_lock_t *);
void omp_destroy_lock(omp_lock_t *);
void omp_set_lock(omp_lock_t *);
void omp_unset_lock(omp_lock_t *);
int omp_test_lock(omp_lock_t *);
void omp_init_nest_lock(omp_nest_lock_t *);
void omp_destroy_nest_lock(omp_nest_lock_t *);
void omp_set_nest_lock(omp_nest_lock_t *);
void omp_unset_nest_lock(omp_nest_lock_t *);
int omp_test_nest_lock(omp_nest_lock_t *);
double omp_get_wtime(void);
double omp_get_wtick(void);
#ifdef __cplusplus
}
#endif
#endif
`

// writeOMPHeader writes the header into a folder of dir and returns the
// folder.
func writeOMPHeader(dir string) (string, error) {
	inc := filepath.Join(dir, "omp-include")
	if err := os.MkdirAll(inc, 0o755); err != nil {
		return "", err
	}
	return inc, os.WriteFile(filepath.Join(inc, "omp.h"), []byte(ompHeader), 0o644)
}
