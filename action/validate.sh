#!/usr/bin/env bash
# Step of the envguard GitHub Action (action.yml). Reads the action's inputs
# from INPUT_* variables, runs envguard validate with GitHub annotations on
# standard output (the runner turns ::error lines into annotations), the
# text report into the job summary and, when asked, a SARIF log; records
# the exit status as the step's exit-code output instead of failing, so
# that SARIF is uploaded before finish.sh fails the job.
set -uo pipefail

args=(--fail-on "${INPUT_FAIL_ON:-error}")
# Target names hold no spaces: split on spaces and newlines.
for t in ${INPUT_TARGETS:-}; do
	args+=(--target "$t")
done
if [ -n "${INPUT_TARGETS_FILE:-}" ]; then
	args+=(--targets "$INPUT_TARGETS_FILE")
fi
# One file or directory per line, so that names may hold spaces.
files=()
while IFS= read -r f; do
	f=${f%$'\r'}
	[ -n "$f" ] && files+=("$f")
done <<<"${INPUT_FILES:-.}"
if [ ${#files[@]} -eq 0 ]; then
	files=(.)
fi

envguard validate --format github "${args[@]}" -- "${files[@]}"
code=$?
echo "exit-code=$code" >>"$GITHUB_OUTPUT"

if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ "$code" -le 1 ]; then
	{
		echo '### envguard'
		echo '```'
		envguard validate --format text "${args[@]}" -- "${files[@]}"
		echo '```'
	} >>"$GITHUB_STEP_SUMMARY"
fi

if [ "${INPUT_SARIF:-false}" = true ] && [ "$code" -le 1 ]; then
	sarif=${INPUT_SARIF_FILE:-envguard.sarif}
	envguard validate --format sarif "${args[@]}" -- "${files[@]}" >"$sarif"
	if [ $? -le 1 ]; then
		# upload-sarif resolves a relative path from the workspace.
		case $sarif in
		/*) ;;
		*) sarif=$PWD/$sarif ;;
		esac
		echo "sarif-file=$sarif" >>"$GITHUB_OUTPUT"
	fi
fi
exit 0
