/* The cost of one system call from C: getpid through syscall(2), 2 million times, five rounds. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(void) {
    const int calls = 2000000;
    long sum = 0;
    for (int round = 0; round < 5; round++) {
        double t0 = now_ns();
        for (int i = 0; i < calls; i++) {
            sum += syscall(SYS_getpid);
        }
        printf("C syscall(SYS_getpid): %.0f ns per call\n", (now_ns() - t0) / calls);
    }
    return sum == 1;
}
