#!/bin/bash
# Public declarations per Swift module: lines declaring `public` or `open` (imports and extensions not counted). Usage: tools/public-count.sh [package root]
cd ${1:-.}
for d in Sources/Shoebox* Sources/shoebox; do
  n=$(grep -rhE '^\s*(@[A-Za-z]+(\([^)]*\))?\s+)*(public|open)\s' $d --include=*.swift | grep -vE '^\s*public import|^\s*(public|open) +extension' | wc -l)
  echo "$n $d"
done
