# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for chargesim; `make install` puts it in
# PREFIX/share/bash-completion/completions/chargesim, where bash-completion finds it
# (or source it from ~/.bashrc).
#
# Nothing here lists a command, an option or a policy: each is asked of the chargesim
# being completed (the first word of the line), so the completion never drifts from
# the binary. Commands come from `chargesim --help`, a command's options from
# `chargesim COMMAND --help`, policy names from `chargesim list policies`, list's
# topics from `chargesim list --help`. Scenario files (*.json) complete where a
# command takes one, traces (*.csv) for plot and diff, directories for -o.
# It needs no helper of the bash-completion package. The binary is asked in the C
# locale, whose --help headers ("Application Options:") are the ones parsed here.

# the commands, a command's options, the policies, list's topics: one per line
_chargesim_commands() {
	LC_ALL=C "$1" --help 2>/dev/null | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'
}

_chargesim_options() {
	LC_ALL=C "$1" "$2" --help 2>/dev/null | sed -n '/^Application Options:/,/^$/{
		s/^  *\(-[A-Za-z0-9]\), \(--[a-z0-9-]*\).*/\2/p
		s/^  *\(--[a-z0-9-]*\).*/\1/p
	}'
	echo --help
}

# options that take a value (--output=DIR): the value is the next word
_chargesim_valued() {
	LC_ALL=C "$1" "$2" --help 2>/dev/null | sed -n '/^Application Options:/,/^$/{
		s/^  *\(-[A-Za-z0-9]\), \(--[a-z0-9-]*\)=.*/\1 \2/p
		s/^  *\(--[a-z0-9-]*\)=.*/\1/p
	}'
}

_chargesim_policies() {
	LC_ALL=C "$1" list policies 2>/dev/null | sed -n 's/^\([^ ][^ ]*\) - .*/\1/p'
}

_chargesim_list_topics() {
	LC_ALL=C "$1" list --help 2>/dev/null |
		sed -n 's/^  chargesim list \[OPTION[^]]*\] \[\([a-z|]*\)\].*/\1/p' | tr '|' '\n'
}

# _chargesim_files PATTERN CUR: the files matching PATTERN and every directory
_chargesim_files() {
	local IFS=$'\n'
	COMPREPLY+=($(compgen -f -X "!$1" -- "$2") $(compgen -d -- "$2"))
	compopt -o filenames 2>/dev/null
}

_chargesim_dirs() {
	local IFS=$'\n'
	COMPREPLY+=($(compgen -d -- "$1"))
	compopt -o filenames 2>/dev/null
}

_chargesim() {
	local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev="" cmd="" i w
	local IFS=$' \t\n'

	COMPREPLY=()
	bin=${bin/#\~/$HOME}
	# "--policy=sa" arrives as "--policy" "=" "sa" (= is a word break)
	if [ "$cur" = "=" ]; then
		cur=""
		prev=${COMP_WORDS[COMP_CWORD - 1]}
	elif [ "$COMP_CWORD" -ge 2 ] && [ "${COMP_WORDS[COMP_CWORD - 1]}" = "=" ]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [ "$COMP_CWORD" -ge 1 ]; then
		prev=${COMP_WORDS[COMP_CWORD - 1]}
	fi
	# the command: the first word after the binary that is no option
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		-*) ;;
		*) cmd=$w; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		case $cur in
		-*) COMPREPLY=($(compgen -W "--help --version" -- "$cur")) ;;
		*) COMPREPLY=($(compgen -W "$(_chargesim_commands "$bin")" -- "$cur")) ;;
		esac
		return 0
	fi

	# "--policy=sa" as one word (COMP_WORDBREAKS without =): complete the value, and put
	# the option back in front of each completion
	local prefix=""
	if [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
		prefix="$prev="
	fi
	# the value of an option
	if [[ " $(_chargesim_valued "$bin" "$cmd" | tr '\n' ' ') " == *" $prev "* ]]; then
		case $cmd:$prev in
		*:--policy)
			COMPREPLY=($(compgen -W "$(_chargesim_policies "$bin")" -- "$cur"))
			_chargesim_files '*.so' "$cur" ;;
		*:-o | *:--output)
			if [ "$cmd" = plot ]; then
				_chargesim_files '*' "$cur"
			else
				_chargesim_dirs "$cur"
			fi ;;
		*:--allow-plugins) _chargesim_dirs "$cur" ;;
		*:--scenario | *:--sweep) _chargesim_files '*.json' "$cur" ;;
		*:--junit) _chargesim_files '*.xml' "$cur" ;;
		*:--heatmap) _chargesim_files '*.csv' "$cur" ;;
		esac
		[ -n "$prefix" ] && COMPREPLY=("${COMPREPLY[@]/#/$prefix}")
		return 0
	fi
	case $cur in
	-*)
		COMPREPLY=($(compgen -W "$(_chargesim_options "$bin" "$cmd")" -- "$cur"))
		return 0 ;;
	esac

	# the arguments
	case $cmd in
	run | check | compare | sweep) _chargesim_files '*.json' "$cur" ;;
	plot | diff) _chargesim_files '*.csv' "$cur" ;;
	merge) _chargesim_dirs "$cur" ;;
	list)
		local topic="" n=0
		for ((i = i + 1; i < COMP_CWORD; i++)); do
			case ${COMP_WORDS[i]} in
			-*) ;;
			*) [ -z "$topic" ] && topic=${COMP_WORDS[i]}; n=$((n + 1)) ;;
			esac
		done
		case $topic in
		"") COMPREPLY=($(compgen -W "$(_chargesim_list_topics "$bin")" -- "$cur")) ;;
		policies)
			COMPREPLY=($(compgen -W "$(_chargesim_policies "$bin")" -- "$cur"))
			_chargesim_files '*.so' "$cur" ;;
		scenarios) [ "$n" -eq 1 ] && _chargesim_dirs "$cur" ;;
		esac ;;
	esac
	return 0
}

complete -F _chargesim chargesim
