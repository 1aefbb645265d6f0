# bash completion for wslgpu                               -*- shell-script -*-
# Installed as share/bash-completion/completions/wslgpu (make install).
#
# What to offer comes from the binary being completed, which prints its own
# declarations (src/cli/parse-options.h): 'wslgpu __complete commands', the
# options of each command with what their values are ('wslgpu __complete
# options [CMD]': SHORT LONG ARG COMPLETE HELP, tab-separated), the layers
# and check ids --only takes ('wslgpu __complete checks'), and the
# knowledge-base ids ('wslgpu kb'), each read once and cached, so that this
# file never goes out of date with the binary it completes for. As in git,
# only global options go before the command word.

# The option lines of one command ("" for the global ones), cached.
_wslgpu_options()
{
	local bin=$1 cmd=$2 var
	var="_wslgpu_opts_${cmd:-global}"
	if [[ -z ${!var+set} ]]; then
		printf -v "$var" '%s' "$("$bin" __complete options ${cmd:+"$cmd"} 2>/dev/null)"
	fi
	printf '%s\n' "${!var}"
}

# The option words of one command: -v and --verbose.
_wslgpu_option_words()
{
	local s l rest
	while IFS=$'\t' read -r s l rest; do
		[[ $s != - ]] && printf '%s\n' "$s"
		[[ $l != - ]] && printf '%s\n' "$l"
	done < <(_wslgpu_options "$1" "$2")
}

# What the value of option $3 of command $2 ("" global) is: file, dir,
# checks, pid, url, words:A,B, nothing; "" for a flag. $4 "next": only an
# option that takes the next word (not one given only as --name=VALUE).
_wslgpu_value_kind()
{
	local s l a c rest
	while IFS=$'\t' read -r s l a c rest; do
		[[ $s == "$3" || $l == "$3" ]] || continue
		[[ $a == - ]] && return 1
		[[ $4 == next && $a == =* ]] && return 1
		printf '%s\n' "$c"
		return 0
	done < <(_wslgpu_options "$1" "$2")
	return 1
}

# The commands (cached).
_wslgpu_commands()
{
	if [[ -z ${_wslgpu_cmd_list+set} ]]; then
		_wslgpu_cmd_list=$("$1" __complete commands 2>/dev/null | cut -f1)
	fi
	printf '%s\n' $_wslgpu_cmd_list
}

# Layers and check ids for --only (cached).
_wslgpu_ids()
{
	if [[ -z ${_wslgpu_id_list+set} ]]; then
		_wslgpu_id_list=$("$1" __complete checks 2>/dev/null)
	fi
	printf '%s\n' $_wslgpu_id_list
}

# Knowledge-base ids, from wslgpu kb (cached): the first word of each line
# that is not a layer heading ("libs: ...") or a title continued.
_wslgpu_kb_ids()
{
	if [[ -z ${_wslgpu_kb_list+set} ]]; then
		_wslgpu_kb_list=$("$1" kb 2>/dev/null | awk '/^[^ ]/ && $1 !~ /:$/ { print $1 }')
	fi
	printf '%s\n' $_wslgpu_kb_list
}

# The words for a value of kind $2.
_wslgpu_value()
{
	local bin=$1 kind=$2 cur=$3
	case $kind in
	dir)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
	file)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
	checks)
		# a comma-separated list: complete its last element
		local head="" last=$cur
		if [[ $cur == *,* ]]; then
			head=${cur%,*},
			last=${cur##*,}
		fi
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "$(_wslgpu_ids "$bin")" -- "$last")
		compopt -o nospace 2>/dev/null ;;
	pid)
		mapfile -t COMPREPLY < <(compgen -W "$(ps -e -o pid= 2>/dev/null)" -- "$cur") ;;
	words:*)
		local words=${kind#words:}
		mapfile -t COMPREPLY < <(compgen -W "${words//,/ }" -- "$cur") ;;
	*)
		COMPREPLY=() ;;  # a number, a name, a URL: nothing to offer
	esac
}

_wslgpu()
{
	local cur prev words cword
	if declare -F _init_completion >/dev/null; then
		_init_completion -n =: || return
	else
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		words=("${COMP_WORDS[@]}")
		cword=$COMP_CWORD
	fi
	local bin=${words[0]} cmd="" at=0 i kind
	command -v "$bin" >/dev/null 2>&1 || bin=wslgpu

	# The command word: the first word that is not a global option or its value.
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--) break ;;
		--*=*) ;;
		-*) _wslgpu_value_kind "$bin" "" "${words[i]}" next >/dev/null && ((i++)) ;;
		*) cmd=${words[i]}; at=$i; break ;;
		esac
	done

	# watch -- COMMAND: complete the command being watched.
	if [[ $cmd == watch ]]; then
		for ((i = at + 1; i < cword; i++)); do
			if [[ ${words[i]} == -- ]]; then
				if declare -F _command_offset >/dev/null; then
					_command_offset $((i + 1))
				else
					mapfile -t COMPREPLY < <(compgen -c -- "$cur")
				fi
				return
			fi
		done
	fi

	# The value of an option (--only X, --root DIR; --color=WHEN, --json=FILE too).
	local opt=$prev how=next
	[[ $prev == = ]] && { opt=${words[cword - 2]}; how=any; }  # COMP_WORDS split at '='
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		cur=${cur#*=}
		how=any
	fi
	if [[ $opt == -* ]] && kind=$(_wslgpu_value_kind "$bin" "$cmd" "$opt" $how); then
		_wslgpu_value "$bin" "$kind" "$cur"
		return
	fi

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$(_wslgpu_option_words "$bin" "")" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$(_wslgpu_commands "$bin")" -- "$cur")
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_wslgpu_option_words "$bin" "$cmd")" -- "$cur")
		return
	fi
	case $cmd in
	help)
		((cword == at + 1)) &&
			mapfile -t COMPREPLY < <(compgen -W "$(_wslgpu_commands "$bin")" -- "$cur") ;;
	kb)
		mapfile -t COMPREPLY < <(compgen -W "$(_wslgpu_kb_ids "$bin")" -- "$cur") ;;
	bench)
		local sub="" w
		for ((i = at + 1; i < cword; i++)); do
			w=${words[i]}
			if [[ $w == io || $w == gpu ]]; then
				sub=$w
			elif [[ $w == -* ]] && _wslgpu_value_kind "$bin" bench "$w" next >/dev/null; then
				((i++))
			elif [[ $w != -* ]]; then
				sub=io # a path: bench measures it with io
			fi
		done
		if [[ -z $sub ]]; then
			mapfile -t COMPREPLY < <(compgen -W "io gpu" -- "$cur"; compgen -d -- "$cur")
		elif [[ $sub == io ]]; then
			mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		fi ;;
	esac  # explain TEXT, watch -- COMMAND: nothing to offer before --
} &&
	complete -F _wslgpu wslgpu

# ex: filetype=sh
