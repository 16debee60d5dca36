/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ONCACHE_MODE_H
#define ONCACHE_MODE_H

#include "ns3/enum.h"

#include <string>

namespace ns3
{

/**
 * \ingroup oncache
 * \brief The data path of a cluster (the ONCache paper's bare metal, Antrea-like
 *        overlay and ONCache, and ONCache with the authors' optional bpf_redirect_rpeer).
 */
enum OncacheMode
{
    ONCACHE_MODE_BARE_METAL,   //!< host networking: no veth, no overlay, no encapsulation
    ONCACHE_MODE_OVERLAY,      //!< Antrea-like overlay: veth, routing, filter+conntrack, VXLAN
    ONCACHE_MODE_ONCACHE,      //!< ONCache fast path on a hit, the overlay on a miss
    ONCACHE_MODE_ONCACHE_RPEER //!< ONCache, and the egress fast path also skips the veth
};

/**
 * \ingroup oncache
 * \brief Parse a mode name ("BareMetal", "Overlay", "Oncache", "OncacheRpeer").
 * \param name the name
 * \return the mode
 * \throws std::invalid_argument for an unknown name
 */
OncacheMode OncacheModeFromString(const std::string& name);

/**
 * \ingroup oncache
 * \param mode a mode
 * \return its name, as accepted by OncacheModeFromString
 */
std::string OncacheModeToString(OncacheMode mode);

/**
 * \ingroup oncache
 * \param mode a mode
 * \return true for the two ONCache modes
 */
/**
 * \ingroup oncache
 * \return the checker of an OncacheMode Attribute (names BareMetal, Overlay, Oncache,
 *         OncacheRpeer), shared by every class with a Mode Attribute
 */
Ptr<const AttributeChecker> MakeOncacheModeChecker();

inline bool
OncacheModeUsesCache(OncacheMode mode)
{
    return mode == ONCACHE_MODE_ONCACHE || mode == ONCACHE_MODE_ONCACHE_RPEER;
}

} // namespace ns3

#endif /* ONCACHE_MODE_H */
