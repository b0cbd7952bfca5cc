#pragma once

namespace StreamCompaction {
namespace detail {

// Shared memory for types without trivial constructors: raw, aligned bytes.
template <class Storage>
__device__ __forceinline__ Storage &shared_storage() {
    __shared__ alignas(16) unsigned char raw[sizeof(Storage)];
    return *reinterpret_cast<Storage *>(raw);
}

}  // namespace detail
}  // namespace StreamCompaction
