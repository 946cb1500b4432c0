// Compile-time baseline: the whole public API included, nothing called.
#include <recur/recur.hpp>

int main() { return 0; }
