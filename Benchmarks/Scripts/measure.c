/* Runs a command and writes what it alone used to REPORT: wall seconds, CPU seconds (user +
 * system) and peak RSS in KiB, on one line. It forks the command itself, so the peak RSS is the
 * command's: Linux carries a process's peak across exec, and a command started straight from a
 * large process (the benchmark's Python) would report that process's. CPU time is to the
 * microsecond, where /usr/bin/time rounds to 10 ms. Exits with the command's status.
 *
 *   cc -O2 measure.c -o measure
 *   ./measure REPORT COMMAND [ARGUMENT...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval value) { return value.tv_sec + value.tv_usec / 1e6; }

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: measure REPORT COMMAND [ARGUMENT...]\n");
        return 2;
    }
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 2;
    }
    if (child == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(child, &status, 0, &usage) < 0) {
        perror("wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    FILE *report = fopen(argv[1], "w");
    if (!report) {
        perror(argv[1]);
        return 2;
    }
    double wall = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    fprintf(report, "%.6f %.6f %ld\n", wall, seconds(usage.ru_utime) + seconds(usage.ru_stime), usage.ru_maxrss);
    fclose(report);
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
