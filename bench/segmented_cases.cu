#include "cases.h"

namespace bench {

void run_segmented(const Options &, const Sink &) {}

}  // namespace bench
