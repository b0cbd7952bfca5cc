#pragma once
// Carving the caller's temporary storage into pieces. The caller's pointer may have any alignment
// (a buffer carved from its own, at any byte offset): the layout aligns its base up inside the
// buffer, and bytes() includes the slack that takes. Every piece starts at a multiple of
// kTempAlignment, which suits any vector access and keeps pieces on separate cache lines.
#include <array>
#include <cstddef>
#include <cstdint>

namespace StreamCompaction {
namespace detail {

constexpr std::size_t kTempAlignment = 128;

constexpr std::size_t round_up(std::size_t bytes, std::size_t alignment) {
    return (bytes + alignment - 1) / alignment * alignment;
}

template <std::size_t N>
class TempLayout {
public:
    explicit TempLayout(const std::array<std::size_t, N> &sizes) {
        std::size_t offset = 0;
        for (std::size_t i = 0; i < N; ++i) {
            offsets_[i] = offset;
            offset += round_up(sizes[i], kTempAlignment);
        }
        total_ = offset;
    }

    // What the caller must provide: the pieces and the slack for a base of any alignment.
    std::size_t bytes() const { return total_ == 0 ? 0 : total_ + kTempAlignment - 1; }

    // The pieces inside `d_temp` (at least bytes() long), in the order of the sizes.
    std::array<char *, N> carve(void *d_temp) const {
        const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(d_temp);
        char *base = static_cast<char *>(d_temp) + (round_up(address, kTempAlignment) - address);
        std::array<char *, N> pieces{};
        for (std::size_t i = 0; i < N; ++i) pieces[i] = base + offsets_[i];
        return pieces;
    }

private:
    std::array<std::size_t, N> offsets_{};
    std::size_t total_ = 0;
};

template <class... Sizes>
TempLayout<sizeof...(Sizes)> temp_layout(Sizes... sizes) {
    return TempLayout<sizeof...(Sizes)>({static_cast<std::size_t>(sizes)...});
}

}  // namespace detail
}  // namespace StreamCompaction
