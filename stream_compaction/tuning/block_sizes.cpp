#include <stream_compaction/tuning/block_sizes.h>

#include <stdexcept>
#include <string>

namespace StreamCompaction {

BlockSizes &block_sizes() {
    static BlockSizes sizes;
    return sizes;
}

int checked_block_size(int threads) {
    const bool power_of_two = threads > 0 && (threads & (threads - 1)) == 0;
    if (!power_of_two || threads < 32 || threads > 1024)
        throw std::invalid_argument("block size must be a power of two in [32, 1024], got " +
                                    std::to_string(threads));
    return threads;
}

void set_block_size(int threads) {
    checked_block_size(threads);
    BlockSizes &sizes = block_sizes();
    sizes.naive = threads;
    sizes.efficient = threads;
    sizes.shared = threads;
    sizes.single_pass = threads;
    sizes.radix = threads < 512 ? threads : 512;  // the radix sort's tile lives in registers: 512 at most
    sizes.segmented = threads;
    sizes.reduce = threads;
}

}  // namespace StreamCompaction
