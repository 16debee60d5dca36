/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The model zoo file and its reader.
// Tests: cluster-model-zoo
#include "ns3/cluster-model-zoo.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>

using namespace ns3;

namespace
{
/// Write `text` to a temporary file and return its path.
std::string
TempFile(const std::string& text)
{
    std::string path = ::testing::TempDir() + "zoo-" +
                       ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".csv";
    std::ofstream(path) << text;
    return path;
}

const char* HEADER = "model,parameters,gradient_bytes,batch_per_gpu,compute_ms_v100,src\n";

/// \return the message Load throws for `text`
std::string
LoadError(const std::string& text)
{
    try
    {
        ClusterModelZoo::Load(TempFile(text));
    }
    catch (const std::runtime_error& e)
    {
        return e.what();
    }
    return "";
}
} // namespace

TEST(ClusterModelZoo, TheRepositoryZooCoversTheTraceAndThePaper)
{
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    for (const char* name : {"vgg11",
                             "vgg16",
                             "vgg19",
                             "alexnet",
                             "googlenet",
                             "inception3",
                             "inception4",
                             "resnet50",
                             "resnet101",
                             "resnet152",
                             "bert-large",
                             "gpt2"})
    {
        const ClusterModel& m = zoo.Get(name);
        EXPECT_EQ(m.gradientBytes, 4 * m.parameters) << name; // fp32 gradients
        EXPECT_GT(m.computeTime, MilliSeconds(1)) << name;
        EXPECT_LT(m.computeTime, Seconds(10)) << name;
    }
    EXPECT_EQ(zoo.Get("resnet50").parameters, 25557032u);
}

TEST(ClusterModelZoo, ReadsRowsAndSkipsComments)
{
    ClusterModelZoo zoo = ClusterModelZoo::Load(
        TempFile(std::string("# comment\n") + HEADER + "tiny,10,40,8,2.5,somewhere\n"));
    EXPECT_EQ(zoo.Get("tiny").gradientBytes, 40u);
    EXPECT_EQ(zoo.Get("tiny").computeTime, MicroSeconds(2500));
    EXPECT_EQ(zoo.GetNames(), std::vector<std::string>{"tiny"});
}

TEST(ClusterModelZoo, MalformedRowsNameFileLineAndField)
{
    std::string e = LoadError(std::string(HEADER) + "a,10,40,8,2.5,x\nb,10,forty,8,2.5,x\n");
    EXPECT_NE(e.find(":3: field 'gradient_bytes'"), std::string::npos) << e;
    e = LoadError(std::string(HEADER) + "a,10,40\n");
    EXPECT_NE(e.find(":2: expected 6 fields, got 3"), std::string::npos) << e;
    e = LoadError(std::string(HEADER) + "a,10,40,8,-1,x\n");
    EXPECT_NE(e.find("'compute_ms_v100'"), std::string::npos) << e;
    e = LoadError(std::string(HEADER) + "a,10,40,8,1,x\na,10,40,8,1,x\n");
    EXPECT_NE(e.find("listed twice"), std::string::npos) << e;
    e = LoadError("name,parameters\n");
    EXPECT_NE(e.find(":1: the header has no column 'model'"), std::string::npos) << e;
    e = LoadError("");
    EXPECT_NE(e.find("empty file"), std::string::npos) << e;
    e = LoadError(HEADER);
    EXPECT_NE(e.find("no models"), std::string::npos) << e;
    EXPECT_NE(LoadError("").find("zoo-"), std::string::npos);
    try
    {
        ClusterModelZoo::Load("/nonexistent/zoo.csv");
        FAIL();
    }
    catch (const std::runtime_error& err)
    {
        EXPECT_NE(std::string(err.what()).find("/nonexistent/zoo.csv"), std::string::npos);
    }
}

TEST(ClusterModelZoo, UnknownModelListsTheKnownOnes)
{
    ClusterModelZoo zoo = ClusterModelZoo::Load(TempFile(std::string(HEADER) + "tiny,1,4,1,1,x\n"));
    try
    {
        zoo.Get("gpt5");
        FAIL();
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("unknown model 'gpt5' (known: tiny)"),
                  std::string::npos);
    }
}

TEST(ClusterModelZoo, ValuesThatDoNotFitAreRefused)
{
    std::string e = LoadError(std::string(HEADER) + "m,10,40,4294967297,5,s\n");
    EXPECT_NE(e.find(":2: field 'batch_per_gpu' must be a whole number from 1 to 4294967295"),
              std::string::npos)
        << e;
    e = LoadError(std::string(HEADER) + "m,10,40,32,1e300,s\n");
    EXPECT_NE(e.find(":2: field 'compute_ms_v100'"), std::string::npos) << e;
    e = LoadError(std::string(HEADER) + "m,1e300,40,32,5,s\n");
    EXPECT_NE(e.find(":2: field 'parameters'"), std::string::npos) << e;
}

TEST(ClusterModelZoo, TheDefaultAliasesMapPhillyModelsOntoTheZoo)
{
    ClusterModelZoo zoo = ClusterModelZoo::LoadDefault();
    // The choices of model/cluster/cluster-model-aliases.csv (approximations, documented there).
    const std::pair<const char*, const char*> expected[] = {{"resnet18", "googlenet"},
                                                            {"shufflenet", "googlenet"},
                                                            {"bert", "bert-base"},
                                                            {"dqn", "googlenet"},
                                                            {"a2c", "googlenet"}};
    for (const auto& [alias, model] : expected)
    {
        ASSERT_TRUE(zoo.Has(alias)) << alias;
        EXPECT_EQ(&zoo.Get(alias), &zoo.Get(model)) << alias;
        EXPECT_EQ(zoo.Get(alias).name, model) << alias;
    }
    EXPECT_EQ(zoo.GetAliases().size(), 5u);
    // Aliases are not models: the names stay the zoo's.
    auto names = zoo.GetNames();
    EXPECT_EQ(std::count(names.begin(), names.end(), "dqn"), 0);
}

TEST(ClusterModelZoo, AliasesAreCheckedAndNameFileLineAndField)
{
    ClusterModelZoo zoo = ClusterModelZoo::Load(TempFile(std::string(HEADER) + "m,10,40,32,5,s\n"));
    auto aliasError = [&zoo](const std::string& text) {
        try
        {
            ClusterModelZoo copy = zoo;
            copy.LoadAliases(TempFile(text));
        }
        catch (const std::runtime_error& e)
        {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(aliasError("alias,model,note\nx,m,fine\n"), "");
    std::string e = aliasError("alias,model,note\nx,m,ok\ny,nosuch,bad\n");
    EXPECT_NE(e.find(":3: field 'model' names no zoo model (got 'nosuch'; known: m"),
              std::string::npos)
        << e;
    e = aliasError("alias,model\nm,m\n");
    EXPECT_NE(e.find(":2: field 'alias'"), std::string::npos) << e;
    e = aliasError("alias,model\nx,m\nx,m\n");
    EXPECT_NE(e.find(":3: field 'alias'"), std::string::npos) << e;
    zoo.AddAlias("x", "m");
    EXPECT_EQ(zoo.Get("x").name, "m");
    EXPECT_THROW(zoo.AddAlias("y", "nosuch"), std::invalid_argument);
    EXPECT_THROW(zoo.AddAlias("m", "m"), std::invalid_argument);
    try
    {
        zoo.Get("z");
        FAIL() << "unknown model accepted";
    }
    catch (const std::invalid_argument& error)
    {
        EXPECT_NE(std::string(error.what()).find("known: m; aliases: x -> m"), std::string::npos)
            << error.what();
    }
}
