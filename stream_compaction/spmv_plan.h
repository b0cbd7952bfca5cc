#pragma once
// Deprecated in 0.10, removed in 0.11: moved to <stream_compaction/detail/spmv/plan.h>, whose names
// come with <stream_compaction/device/spmv.cuh> (CHANGELOG, 0.10.0).
#ifndef SC_NO_DEPRECATED_HEADER_WARNINGS
#warning "<stream_compaction/spmv_plan.h> is deprecated and will be removed in 0.11: include <stream_compaction/device/spmv.cuh>"
#endif
#include <stream_compaction/detail/spmv/plan.h>
