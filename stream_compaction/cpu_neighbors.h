#pragma once
// Deprecated in 0.10, removed in 0.11: moved to <stream_compaction/reference/neighbors.h> (CHANGELOG, 0.10.0).
#ifndef SC_NO_DEPRECATED_HEADER_WARNINGS
#warning "<stream_compaction/cpu_neighbors.h> is deprecated and will be removed in 0.11: include <stream_compaction/reference/neighbors.h>"
#endif
#include <stream_compaction/reference/neighbors.h>
