#include "ns3/test.h"
