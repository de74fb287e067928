#define NBUF 8
#define USE_TIMER
#define DEBUG 0
