#!/usr/bin/env bash
# The main job: builds the travel assistant example and shows its tools as each provider gets them.
source "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
apt_need g++ cmake make libboost1.81-dev
build="$agentry_root/build/demo"
cmake -S "$agentry_root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" --target travel_tools -j"$(nproc)" >/dev/null
"$build/examples/travel_tools" "$@"
