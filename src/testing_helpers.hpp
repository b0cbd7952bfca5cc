#pragma once
// The classic report format: a student pastes this output straight into a report.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

inline void printDesc(const char *desc) { std::printf("==== %s ====\n", desc); }

inline void printElapsedTime(float ms, const std::string &note) {
    std::printf("   elapsed time: %gms    %s\n", ms, note.c_str());
}

// Index of the first difference, or -1.
inline long long firstMismatch(long long n, const int *expected, const int *actual) {
    for (long long i = 0; i < n; ++i)
        if (expected[i] != actual[i]) return i;
    return -1;
}

// Prints "passed" or "FAIL VALUE" (with the first difference); returns whether it passed.
inline bool printCmpResult(long long n, const int *expected, const int *actual) {
    const long long i = firstMismatch(n, expected, actual);
    if (i >= 0) std::printf("    expected[%lld] = %d, got[%lld] = %d\n", i, expected[i], i, actual[i]);
    std::printf("    %s \n", i >= 0 ? "FAIL VALUE" : "passed");
    return i < 0;
}

// As printCmpResult, after checking the count: prints "FAIL COUNT" when it differs.
inline bool printCmpLenResult(long long n, long long expectedN, const int *expected, const int *actual) {
    if (n != expectedN) {
        std::printf("    expected %lld elements, got %lld\n", expectedN, n);
        std::printf("    FAIL COUNT \n");
        return false;
    }
    return printCmpResult(n, expected, actual);
}

// "[ a b c ... y z ]"; abridged keeps the first 13 and the last 2 elements.
inline void printArray(long long n, const int *a, bool abridged = false) {
    std::printf("    [ ");
    for (long long i = 0; i < n; ++i) {
        if (abridged && i == 13 && n > 16) {
            i = n - 2;
            std::printf("... ");
        }
        std::printf("%3d ", a[i]);
    }
    std::printf("]\n");
}

// Uniform values in [0, maxval).
inline void genArray(long long n, int *a, int maxval, std::mt19937 &rng) {
    std::uniform_int_distribution<int> dist(0, maxval - 1);
    for (long long i = 0; i < n; ++i) a[i] = dist(rng);
}

// A value no correct implementation writes to these tests' outputs: unwritten elements show.
constexpr int kPoison = -0x32323233;

inline void poisonArray(long long n, int *a) {
    for (long long i = 0; i < n; ++i) a[i] = kPoison;
}

// The classic helpers, for course-style clients (tests/course_client).
inline void genArray(int n, int *a, int maxval) {
    for (int i = 0; i < n; ++i) a[i] = std::rand() % maxval;
}

inline void zeroArray(int n, int *a) {
    for (int i = 0; i < n; ++i) a[i] = 0;
}
