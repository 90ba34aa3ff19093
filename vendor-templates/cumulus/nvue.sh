#!/bin/bash
# fabricc: NVIDIA Cumulus Linux {{ device.release }} (NVUE) RoCEv2 QoS for {{ device.hostname }} (fabric {{ device.fabric }}).
{%- if device.description %}
# {{ device.description }}
{%- endif %}
# Do not edit: change the .fab source and rebuild. The same settings as nvue-qos.yaml, as
# `nv set` commands. A FRAGMENT: QoS and the fabric ports' description, MTU and QoS profiles
# only. Run it on the switch; if a command fails, the pending revision is detached, so nothing
# half-staged is applied later. `nv config apply -y` applies and saves; switchd reloads QoS,
# and PFC/buffer changes drop traffic briefly: use a maintenance window.
set -euo pipefail
trap 'nv config detach' ERR
# classification: every DSCP stated explicitly (the default map is dscp >> 3)
nv set qos mapping default-global trust both
{%- for dscp, sp in device.dscp_map %}
nv set qos mapping default-global dscp {{ dscp }} switch-priority {{ sp }}
{%- endfor %}
{%- for sp, tc in device.egress_map %}
nv set qos egress-queue-mapping default-global switch-priority {{ sp }} traffic-class {{ tc }}
{%- endfor %}
{%- if device.lossless_priorities %}
nv set qos traffic-pool default-lossy memory-percent {{ device.lossy_pool_percent }}
nv set qos traffic-pool default-lossless memory-percent {{ device.lossless_pool_percent }}
{%- for p in device.lossless_priorities %}
nv set qos traffic-pool default-lossless switch-priority {{ p }}
{%- endfor %}
{%- for profile in device.pfc_profiles %}
{%- for p in device.lossless_priorities %}
nv set qos pfc {{ profile.name }} switch-priority {{ p }}
{%- endfor %}
nv set qos pfc {{ profile.name }} tx {{ device.enable }}
nv set qos pfc {{ profile.name }} rx {{ device.enable }}
nv set qos pfc {{ profile.name }} cable-length {{ profile.cable_length }}
{%- endfor %}
{%- endif %}
{%- for profile in device.ecn_profiles %}
{%- for q in profile.queues %}
{%- if q.enable %}
nv set qos congestion-control {{ profile.name }} traffic-class {{ q.tc }} ecn {{ device.enable }}
nv set qos congestion-control {{ profile.name }} traffic-class {{ q.tc }} min-threshold {{ q.min_bytes }}
nv set qos congestion-control {{ profile.name }} traffic-class {{ q.tc }} max-threshold {{ q.max_bytes }}
nv set qos congestion-control {{ profile.name }} traffic-class {{ q.tc }} probability {{ q.probability }}
{%- else %}
nv set qos congestion-control {{ profile.name }} traffic-class {{ q.tc }} ecn {{ device.disable }}
{%- endif %}
{%- endfor %}
{%- endfor %}
{%- for s in device.schedulers %}
{%- if s.strict %}
nv set qos egress-scheduler default-global traffic-class {{ s.tc }} mode strict
{%- else %}
nv set qos egress-scheduler default-global traffic-class {{ s.tc }} mode dwrr
nv set qos egress-scheduler default-global traffic-class {{ s.tc }} bw-percent {{ s.bw_percent }}
{%- endif %}
{%- endfor %}
{%- if device.watchdog %}
nv set qos pfc-watchdog polling-interval {{ device.watchdog.polling_interval_ms }}
nv set qos pfc-watchdog robustness {{ device.watchdog.robustness }}
{%- endif %}
{%- for b in device.breakouts %}
nv set interface {{ b.port }} link breakout {{ b.mode }}
{%- endfor %}
{%- for port in device.ports %}
{%- if port.description_shell %}
nv set interface {{ port.name }} description {{ port.description_shell }}
{%- endif %}
nv set interface {{ port.name }} link mtu {{ port.mtu }}
{%- if port.pfc_profile %}
nv set interface {{ port.name }} qos pfc profile {{ port.pfc_profile }}
{%- endif %}
{%- if port.watchdog %}
nv set interface {{ port.name }} qos pfc-watchdog state {{ device.enable }}
{%- endif %}
{%- if port.ecn_profile %}
nv set interface {{ port.name }} qos congestion-control profile {{ port.ecn_profile }}
{%- endif %}
{%- if port.adaptive_routing %}
nv set interface {{ port.name }} router adaptive-routing {{ device.lb.adaptive_routing[0] }} {{ device.lb.adaptive_routing[1] }}
{%- endif %}
{%- endfor %}
{%- if device.ecmp_hash %}
# load-balance hash: ECMP hashes on exactly these outer-header fields.
{%- for field, value in device.ecmp_hash %}
nv set system forwarding ecmp-hash {{ field }} {{ value }}
{%- endfor %}
{%- endif %}
{%- if device.lb.hash_seed is not none %}
# load-balance seed: this switch's ECMP hash seed (switchd restarts to apply it).
nv set system forwarding hash-seed {{ device.lb.hash_seed }}
{%- endif %}
{%- if device.lb.adaptive_routing %}
# load-balance mode adaptive: Spectrum adaptive routing, on the switch-facing ports above.
nv set router adaptive-routing {{ device.lb.adaptive_routing[0] }} {{ device.lb.adaptive_routing[1] }}
{%- endif %}
nv config apply -y
