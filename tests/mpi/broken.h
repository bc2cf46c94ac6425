/* broken.h - deliberately wrong algorithms that the harness must catch (--self-test). */
#ifndef AUTOCOLL_TEST_BROKEN_H
#define AUTOCOLL_TEST_BROKEN_H

#include "coll/coll.h"

ac_registry broken_algorithms(void);

#endif
