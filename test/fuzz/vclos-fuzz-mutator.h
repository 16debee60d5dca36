/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VCLOS_FUZZ_MUTATOR_H
#define VCLOS_FUZZ_MUTATOR_H

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

/**
 * \brief Deterministic mutations of a seed corpus, for the standalone fuzz driver (the
 *        libFuzzer build uses libFuzzer's own, coverage-guided ones).
 *
 * Each input is a corpus entry with 1 to 4 of: a bit flip, a byte set to a random or a
 * syntax character, truncation, erasing a range, duplicating a range, splicing with another
 * entry, a digit run replaced by an extreme number (huge, negative, fractional, exponent,
 * not a number), deep nesting ([, {"a": ), a token of the corpus's own words (its quoted
 * strings and CSV header fields) inserted, and a line duplicated or swapped. The same seed
 * and corpus give the same inputs, in the same order.
 */
class VclosFuzzMutator
{
  public:
    /**
     * \param corpus the seed inputs (at least one; may be empty strings)
     * \param seed the random seed
     * \param maxLength inputs are cut to this many bytes
     */
    VclosFuzzMutator(std::vector<std::string> corpus, uint64_t seed, std::size_t maxLength);

    /// \return the next input
    std::string Next();

  private:
    std::size_t Below(std::size_t n); //!< uniform in [0, n), 0 for n = 0
    void Mutate(std::string& s);      //!< one mutation
    void GrowDigits(std::string& s);  //!< replace a digit run
    void Nest(std::string& s);        //!< insert deep nesting
    void MoveLine(std::string& s);    //!< duplicate or swap a line

    std::vector<std::string> m_corpus; //!< seeds
    std::vector<std::string> m_words;  //!< tokens taken from the seeds
    std::mt19937_64 m_rng;             //!< the generator
    std::size_t m_maxLength;           //!< length cap
};

#endif /* VCLOS_FUZZ_MUTATOR_H */
