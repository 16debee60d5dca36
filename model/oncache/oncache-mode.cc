/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "oncache-mode.h"

#include "oncache-check.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("OncacheMode");

OncacheMode
OncacheModeFromString(const std::string& name)
{
    for (auto mode : {ONCACHE_MODE_BARE_METAL,
                      ONCACHE_MODE_OVERLAY,
                      ONCACHE_MODE_ONCACHE,
                      ONCACHE_MODE_ONCACHE_RPEER})
    {
        if (OncacheModeToString(mode) == name)
        {
            return mode;
        }
    }
    ONCACHE_REQUIRE(false,
                    std::invalid_argument,
                    "Mode: unknown data-path mode '"
                        << name << "' (expected BareMetal, Overlay, Oncache or OncacheRpeer)");
    return ONCACHE_MODE_OVERLAY;
}

std::string
OncacheModeToString(OncacheMode mode)
{
    switch (mode)
    {
    case ONCACHE_MODE_BARE_METAL:
        return "BareMetal";
    case ONCACHE_MODE_OVERLAY:
        return "Overlay";
    case ONCACHE_MODE_ONCACHE:
        return "Oncache";
    case ONCACHE_MODE_ONCACHE_RPEER:
        return "OncacheRpeer";
    }
    return "Unknown";
}

Ptr<const AttributeChecker>
MakeOncacheModeChecker()
{
    return MakeEnumChecker(ONCACHE_MODE_BARE_METAL,
                           "BareMetal",
                           ONCACHE_MODE_OVERLAY,
                           "Overlay",
                           ONCACHE_MODE_ONCACHE,
                           "Oncache",
                           ONCACHE_MODE_ONCACHE_RPEER,
                           "OncacheRpeer");
}

} // namespace ns3
