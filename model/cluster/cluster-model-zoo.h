/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef CLUSTER_MODEL_ZOO_H
#define CLUSTER_MODEL_ZOO_H

#include "ns3/nstime.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup cluster
 * \brief A DNN model as data-parallel training sees it: the gradient bytes all-reduced and
 *        the compute time of one iteration on one V100-class GPU.
 */
struct ClusterModel
{
    std::string name;           //!< e.g. "resnet50"
    uint64_t parameters = 0;    //!< parameter count
    uint64_t gradientBytes = 0; //!< bytes all-reduced per iteration
    uint32_t batchPerGpu = 0;   //!< per-GPU batch of the compute time
    Time computeTime;           //!< forward and backward of one iteration
};

/**
 * \ingroup cluster
 * \brief The model zoo: models read from a CSV file kept in the repository
 *        (model/cluster/cluster-model-zoo.csv, with the source of every figure).
 *
 * Columns: model, parameters, gradient_bytes, batch_per_gpu, compute_ms_v100, then any
 * others (sources); lines starting with '#' are comments.
 */
class ClusterModelZoo
{
  public:
    /**
     * \brief Read a zoo file.
     * \param path the CSV file
     * \return the zoo; throws std::runtime_error naming the file, line and field on bad input
     */
    static ClusterModelZoo Load(const std::string& path);

    /// \return the zoo at DefaultPath() with the aliases at DefaultAliasPath()
    static ClusterModelZoo LoadDefault();

    /// \return $CLUSTER_MODEL_ZOO if set, else the file in this source tree
    static std::string DefaultPath();

    /**
     * \return $CLUSTER_MODEL_ALIASES if set (empty: no alias file), else the alias file in this
     *         source tree (model/cluster/cluster-model-aliases.csv)
     */
    static std::string DefaultAliasPath();

    /**
     * \brief Read an alias file: columns alias, model (a zoo model), then any others
     *        (notes). A trace's model names that the zoo lacks map onto zoo models this way.
     * \param path the CSV file
     * \throws std::runtime_error naming the file, line and field for an unknown target
     *         model, an alias that is a zoo model, or an alias listed twice
     */
    void LoadAliases(const std::string& path);

    /**
     * \brief Map a name onto a zoo model (replacing an earlier alias of that name).
     * \param alias the name (not a zoo model)
     * \param model the zoo model it stands for
     * \throws std::invalid_argument for an unknown model or an alias that is a zoo model
     */
    void AddAlias(const std::string& alias, const std::string& model);

    /**
     * \param name a model name or an alias
     * \return the model; throws std::invalid_argument listing the known names if unknown
     */
    const ClusterModel& Get(const std::string& name) const;

    /// \param name a model name or an alias \return whether Get knows it
    bool Has(const std::string& name) const;

    /// \return the model names, sorted (aliases excluded)
    std::vector<std::string> GetNames() const;

    /// \return the zoo's names and, if any, its aliases ("a -> b"), for messages (each name
    ///         cut as SuiteShownText cuts it)
    std::string DescribeNames() const;

    /// \return alias -> zoo model
    const std::map<std::string, std::string>& GetAliases() const;

  private:
    std::map<std::string, ClusterModel> m_models; //!< by name
    std::map<std::string, std::string> m_aliases; //!< alias -> model name
};

} // namespace ns3

#endif /* CLUSTER_MODEL_ZOO_H */
