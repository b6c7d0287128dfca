# bash completion for kbench.  Install as
#   /usr/share/bash-completion/completions/kbench   (make install does)
# or source it from ~/.bashrc.  Every candidate comes from
# `kbench __complete`: verbs and options from the tables that print
# --help, variant, machine and benchmark names from the store (--db or
# $KBENCH_DB), file names where a path goes.

_kbench()
{
	local line words cword cur bcur out cand
	local -a cands
	# The line as typed, split at blanks only: bash's own words split at
	# '=' and ':', which variant names (focht-oct06:A) and --opt=value hold.
	line=${COMP_LINE:0:COMP_POINT}
	read -ra words <<< "$line"
	[[ $line =~ [[:space:]]$ || ${#words[@]} -eq 0 ]] && words+=("")
	cword=$(( ${#words[@]} - 1 ))
	cur=${words[cword]}
	out=$("${words[0]}" __complete "$cword" "${words[@]}" 2>/dev/null) || return 0
	if [[ $out == ":files" ]]; then
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "${COMP_WORDS[COMP_CWORD]}")
		return 0
	fi
	# What bash replaces is its own current word: drop what comes before it.
	bcur=${COMP_WORDS[COMP_CWORD]}
	[[ $bcur == "=" || $bcur == ":" ]] && bcur=""
	COMPREPLY=()
	while IFS= read -r cand; do
		[[ -n $cand ]] && COMPREPLY+=("${cand:$(( ${#cur} - ${#bcur} ))}")
	done <<< "$out"
	return 0
}
complete -F _kbench kbench
