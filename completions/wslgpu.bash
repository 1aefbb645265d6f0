# bash completion for wslgpu                               -*- shell-script -*-
# Installed as share/bash-completion/completions/wslgpu (make install).
#
# The commands, the global options and each command's options (and which of
# them take a value) are read from 'wslgpu --help' and 'wslgpu CMD --help',
# the check ids from 'wslgpu check --list' and the knowledge-base ids from
# 'wslgpu kb', the first time they are needed, so that this file never goes
# out of date with the binary it completes for. As in git, only global
# options go before the command word.

# The options of one command ("" for the global ones), from its --help
# (cached): lines "NAME" for a flag, "NAME=" for an option with a value.
_wslgpu_options()
{
	local bin=$1 cmd=$2 var
	var="_wslgpu_opts_${cmd:-global}"
	if [[ -z ${!var+set} ]]; then
		printf -v "$var" '%s' "$("$bin" ${cmd:+"$cmd"} --help 2>/dev/null |
			sed -n 's/^ \{1,\}\(-[a-zA-Z]\), \(--[a-z][a-z-]*\) [A-Z].*/\1= \2=/p
				t
				s/^ \{1,\}\(-[a-zA-Z]\), \(--[a-z][a-z-]*\).*/\1 \2/p
				t
				s/^ \{1,\}\(--[a-z][a-z-]*\) [A-Z].*/\1=/p
				t
				s/^ \{1,\}\(--[a-z][a-z-]*\).*/\1/p')"
	fi
	printf '%s\n' ${!var}
}

# The commands, from wslgpu --help (cached).
_wslgpu_commands()
{
	if [[ -z ${_wslgpu_cmd_list+set} ]]; then
		_wslgpu_cmd_list=$("$1" --help 2>/dev/null | sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p')
	fi
	printf '%s\n' $_wslgpu_cmd_list
}

# Layers and check ids for --only, from check --list (cached): the first word
# of a layer's line and of each check's (a summary continued is indented more).
_wslgpu_ids()
{
	if [[ -z ${_wslgpu_id_list+set} ]]; then
		_wslgpu_id_list=$("$1" check --list 2>/dev/null | awk '/^(  )?[a-z]/ { print $1 }')
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

# Whether option $3 of command $2 ("" global) takes a value.
_wslgpu_valued()
{
	_wslgpu_options "$1" "$2" | grep -qx -- "$3="
}

# The words for an option's value; returns 1 for an option that takes none.
_wslgpu_value()
{
	local bin=$1 opt=$2 cur=$3
	case $opt in
	--root)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
	--color)
		mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur") ;;
	--only)
		# a comma-separated list: complete its last element
		local head="" last=$cur
		if [[ $cur == *,* ]]; then
			head=${cur%,*},
			last=${cur##*,}
		fi
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "$(_wslgpu_ids "$bin")" -- "$last")
		compopt -o nospace 2>/dev/null ;;
	--pid)
		mapfile -t COMPREPLY < <(compgen -W "$(ps -e -o pid= 2>/dev/null)" -- "$cur") ;;
	--policy | --db | --junit | --prom | -o | --output | -f | --file | --csv | --svg | \
		--lib | --python | --data)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
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
	local bin=${words[0]} cmd="" at=0 i
	command -v "$bin" >/dev/null 2>&1 || bin=wslgpu

	# The command word: the first word that is not a global option or its value.
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--) break ;;
		--*=*) ;;
		-*) _wslgpu_valued "$bin" "" "${words[i]}" && ((i++)) ;;
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

	# The value of an option (--only X, --root DIR; --color=WHEN too).
	local opt=$prev
	[[ $prev == = ]] && opt=${words[cword - 2]}  # COMP_WORDS split at '='
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		cur=${cur#*=}
	fi
	if [[ $opt == -* ]] && _wslgpu_valued "$bin" "$cmd" "$opt"; then
		_wslgpu_value "$bin" "$opt" "$cur"
		return
	fi

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$(_wslgpu_options "$bin" "" | tr -d =)" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$(_wslgpu_commands "$bin")" -- "$cur")
		fi
		return
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_wslgpu_options "$bin" "$cmd" | tr -d =)" -- "$cur")
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
			elif [[ $w == -* ]] && _wslgpu_valued "$bin" bench "$w"; then
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
