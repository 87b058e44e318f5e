#!/usr/bin/env bash
# Last step of the envguard GitHub Action (action.yml): fails the job with
# envguard validate's exit status, once annotations and SARIF are out.
set -euo pipefail
case ${EXIT_CODE:-} in
0) exit 0 ;;
1) echo "envguard: findings at the fail-on level (see the annotations and the job summary)" >&2 ;;
2) echo "envguard: bad usage or an unreadable file (see the Validate step's log)" >&2 ;;
"") echo "envguard: the Validate step did not run to the end" >&2; exit 3 ;;
*) echo "envguard: exit status $EXIT_CODE" >&2 ;;
esac
exit "$EXIT_CODE"
