#include "harness.h"

#include <cstdio>

