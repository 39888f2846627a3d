#!/usr/bin/env bash
# The main job (README quick start): set up, then run the sample requirements with reports.
# Reports go to reports/ (JUnit XML, self-contained HTML).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p reports

echo "== the normalised plans of sample_requirements/ (dry run)"
.venv/bin/pacts plan sample_requirements/ --blocks sample_requirements/blocks/common.blocks.yaml

echo "== pytest sample_requirements/"
.venv/bin/pytest sample_requirements/ -v -p no:cacheprovider \
  --junitxml=reports/junit.xml --html=reports/report.html --self-contained-html "$@"
echo "Reports: reports/junit.xml, reports/report.html"
