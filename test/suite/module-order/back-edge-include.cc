/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Built by the suite-module-order tests (never by default). Compiled as part of a library that
// links only ns3-MODULE_ORDER_LINKED, it includes MODULE_ORDER_HEADER: a header of a module
// above (the build must fail: the header is not on its include path) or of its own module (the
// control: the build succeeds).
#include MODULE_ORDER_HEADER

int
SuiteModuleOrderProbe()
{
    return 0;
}
