# bash completion for wslgpu                               -*- shell-script -*-
# Installed as share/bash-completion/completions/wslgpu (make install).
#
# The commands' options are read from 'wslgpu CMD --help' and the check ids
# from 'wslgpu check --list', the first time they are needed, so that this
# file never goes out of date with the binary it completes for.

_wslgpu_commands="check explain bench watch smoke history report fix kb help"

# Long and short options of one command, from its --help (cached).
_wslgpu_options()
{
	local bin=$1 cmd=$2 var
	var="_wslgpu_opts_${cmd//-/_}"
	if [[ -z ${!var+set} ]]; then
		printf -v "$var" '%s' "$("$bin" "$cmd" --help 2>/dev/null |
			sed -n 's/^ \{1,\}\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\1 \2/p' |
			tr -d ',')"
	fi
	printf '%s\n' "${!var}"
}

# Layers and check ids for --only, from check --list (cached).
_wslgpu_ids()
{
	local bin=$1
	if [[ -z ${_wslgpu_id_list+set} ]]; then
		_wslgpu_id_list=$("$bin" check --list 2>/dev/null | awk '{ print $1 }')
	fi
	printf '%s\n' "$_wslgpu_id_list"
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
	local bin=${words[0]} cmd="" i
	command -v "$bin" >/dev/null 2>&1 || bin=wslgpu

	# The command word: the first word that is not an option or its value.
	for ((i = 1; i < cword; i++)); do
		case ${words[i]} in
		--) [[ $cmd ]] || cmd=check; break ;;
		--root | --only | --data | --timeout | --python | --docker-image | --color | \
			--policy | --db | --junit | --prom | --push | --push-delete | --job | --instance | \
			--budget | \
			--limit | --since | --machine | -o | --output | -f | --file | --pid | \
			--interval | --csv | --svg | --size | --block | --files | --file-size | \
			--seconds | --device | --min-size | --max-size | --launches | --batch | --lib)
			((i++)) ;;
		-*) ;;
		*) cmd=${words[i]}; break ;;
		esac
	done

	# watch -- COMMAND: complete the command being watched.
	if [[ $cmd == watch ]]; then
		for ((i = 1; i < cword; i++)); do
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

	case $prev in
	--root)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur"); return ;;
	--policy | --db | --junit | --prom | -o | --output | -f | --file | --csv | --svg | \
		--lib | --python | --data)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
	--color)
		mapfile -t COMPREPLY < <(compgen -W "auto always never" -- "$cur"); return ;;
	--only)
		# a comma-separated list: complete its last element
		local head="" last=$cur
		if [[ $cur == *,* ]]; then
			head=${cur%,*},
			last=${cur##*,}
		fi
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "$(_wslgpu_ids "$bin")" -- "$last")
		compopt -o nospace 2>/dev/null
		return ;;
	--pid)
		mapfile -t COMPREPLY < <(compgen -W "$(ps -e -o pid= 2>/dev/null)" -- "$cur"); return ;;
	--timeout | --docker-image | --push | --push-delete | --job | --instance | --budget | --limit | \
		--since | --machine | --interval | --size | --block | --files | --file-size | \
		--seconds | --device | --min-size | --max-size | --launches | --batch)
		return ;;
	esac

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "--help --version $(_wslgpu_options "$bin" check)" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "$_wslgpu_commands" -- "$cur")
		fi
		return
	fi
	case $cmd in
	help)
		mapfile -t COMPREPLY < <(compgen -W "$_wslgpu_commands" -- "$cur"); return ;;
	kb)
		if [[ $cur != -* ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$("$bin" kb 2>/dev/null | awk '{ print $1 }')" -- "$cur")
			return
		fi ;;
	bench)
		if [[ $cur != -* ]]; then
			local sub=""
			for ((i = i + 1; i < cword; i++)); do
				[[ ${words[i]} == io || ${words[i]} == gpu ]] && sub=${words[i]}
			done
			if [[ -z $sub ]]; then
				mapfile -t COMPREPLY < <(compgen -W "io gpu" -- "$cur")
			else
				mapfile -t COMPREPLY < <(compgen -d -- "$cur")
			fi
			return
		fi ;;
	explain)
		[[ $cur != -* ]] && return ;;
	esac
	mapfile -t COMPREPLY < <(compgen -W "$(_wslgpu_options "$bin" "$cmd")" -- "$cur")
} &&
	complete -F _wslgpu wslgpu

# ex: filetype=sh
