#!/bin/bash
# fabricc: NVIDIA Cumulus Linux 5.17 (NVUE) RoCEv2 QoS for leaf1 (fabric pod-a).
# rail 1 leaf, pod-a
# Do not edit: change the .fab source and rebuild. The same settings as nvue-qos.yaml, as
# `nv set` commands. A FRAGMENT: QoS and the fabric ports' description, MTU and QoS profiles
# only. Run it on the switch; if a command fails, the pending revision is detached, so nothing
# half-staged is applied later. `nv config apply -y` applies and saves; switchd reloads QoS,
# and PFC/buffer changes drop traffic briefly: use a maintenance window.
set -euo pipefail
trap 'nv config detach' ERR
# classification: every DSCP stated explicitly (the default map is dscp >> 3)
nv set qos mapping default-global trust both
nv set qos mapping default-global dscp 0 switch-priority 0
nv set qos mapping default-global dscp 1 switch-priority 0
nv set qos mapping default-global dscp 2 switch-priority 0
nv set qos mapping default-global dscp 3 switch-priority 0
nv set qos mapping default-global dscp 4 switch-priority 0
nv set qos mapping default-global dscp 5 switch-priority 0
nv set qos mapping default-global dscp 6 switch-priority 0
nv set qos mapping default-global dscp 7 switch-priority 0
nv set qos mapping default-global dscp 8 switch-priority 0
nv set qos mapping default-global dscp 9 switch-priority 0
nv set qos mapping default-global dscp 10 switch-priority 0
nv set qos mapping default-global dscp 11 switch-priority 0
nv set qos mapping default-global dscp 12 switch-priority 0
nv set qos mapping default-global dscp 13 switch-priority 0
nv set qos mapping default-global dscp 14 switch-priority 0
nv set qos mapping default-global dscp 15 switch-priority 0
nv set qos mapping default-global dscp 16 switch-priority 0
nv set qos mapping default-global dscp 17 switch-priority 0
nv set qos mapping default-global dscp 18 switch-priority 0
nv set qos mapping default-global dscp 19 switch-priority 0
nv set qos mapping default-global dscp 20 switch-priority 0
nv set qos mapping default-global dscp 21 switch-priority 0
nv set qos mapping default-global dscp 22 switch-priority 0
nv set qos mapping default-global dscp 23 switch-priority 0
nv set qos mapping default-global dscp 24 switch-priority 0
nv set qos mapping default-global dscp 25 switch-priority 0
nv set qos mapping default-global dscp 26 switch-priority 3
nv set qos mapping default-global dscp 27 switch-priority 0
nv set qos mapping default-global dscp 28 switch-priority 0
nv set qos mapping default-global dscp 29 switch-priority 0
nv set qos mapping default-global dscp 30 switch-priority 0
nv set qos mapping default-global dscp 31 switch-priority 0
nv set qos mapping default-global dscp 32 switch-priority 0
nv set qos mapping default-global dscp 33 switch-priority 0
nv set qos mapping default-global dscp 34 switch-priority 0
nv set qos mapping default-global dscp 35 switch-priority 0
nv set qos mapping default-global dscp 36 switch-priority 0
nv set qos mapping default-global dscp 37 switch-priority 0
nv set qos mapping default-global dscp 38 switch-priority 0
nv set qos mapping default-global dscp 39 switch-priority 0
nv set qos mapping default-global dscp 40 switch-priority 0
nv set qos mapping default-global dscp 41 switch-priority 0
nv set qos mapping default-global dscp 42 switch-priority 0
nv set qos mapping default-global dscp 43 switch-priority 0
nv set qos mapping default-global dscp 44 switch-priority 0
nv set qos mapping default-global dscp 45 switch-priority 0
nv set qos mapping default-global dscp 46 switch-priority 0
nv set qos mapping default-global dscp 47 switch-priority 0
nv set qos mapping default-global dscp 48 switch-priority 6
nv set qos mapping default-global dscp 49 switch-priority 0
nv set qos mapping default-global dscp 50 switch-priority 0
nv set qos mapping default-global dscp 51 switch-priority 0
nv set qos mapping default-global dscp 52 switch-priority 0
nv set qos mapping default-global dscp 53 switch-priority 0
nv set qos mapping default-global dscp 54 switch-priority 0
nv set qos mapping default-global dscp 55 switch-priority 0
nv set qos mapping default-global dscp 56 switch-priority 0
nv set qos mapping default-global dscp 57 switch-priority 0
nv set qos mapping default-global dscp 58 switch-priority 0
nv set qos mapping default-global dscp 59 switch-priority 0
nv set qos mapping default-global dscp 60 switch-priority 0
nv set qos mapping default-global dscp 61 switch-priority 0
nv set qos mapping default-global dscp 62 switch-priority 0
nv set qos mapping default-global dscp 63 switch-priority 0
nv set qos egress-queue-mapping default-global switch-priority 0 traffic-class 0
nv set qos egress-queue-mapping default-global switch-priority 1 traffic-class 0
nv set qos egress-queue-mapping default-global switch-priority 2 traffic-class 0
nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 3
nv set qos egress-queue-mapping default-global switch-priority 4 traffic-class 4
nv set qos egress-queue-mapping default-global switch-priority 5 traffic-class 0
nv set qos egress-queue-mapping default-global switch-priority 6 traffic-class 6
nv set qos egress-queue-mapping default-global switch-priority 7 traffic-class 0
nv set qos traffic-pool default-lossy memory-percent 30
nv set qos traffic-pool default-lossless memory-percent 70
nv set qos traffic-pool default-lossless switch-priority 3
nv set qos traffic-pool default-lossless switch-priority 4
nv set qos pfc default-global switch-priority 3
nv set qos pfc default-global switch-priority 4
nv set qos pfc default-global tx enable
nv set qos pfc default-global rx enable
nv set qos pfc default-global cable-length 30
nv set qos pfc fabricc-pfc-3m switch-priority 3
nv set qos pfc fabricc-pfc-3m switch-priority 4
nv set qos pfc fabricc-pfc-3m tx enable
nv set qos pfc fabricc-pfc-3m rx enable
nv set qos pfc fabricc-pfc-3m cable-length 3
nv set qos congestion-control default-global traffic-class 0 ecn disable
nv set qos congestion-control default-global traffic-class 1 ecn disable
nv set qos congestion-control default-global traffic-class 2 ecn disable
nv set qos congestion-control default-global traffic-class 3 ecn enable
nv set qos congestion-control default-global traffic-class 3 min-threshold 150000
nv set qos congestion-control default-global traffic-class 3 max-threshold 1500000
nv set qos congestion-control default-global traffic-class 3 probability 100
nv set qos congestion-control default-global traffic-class 4 ecn enable
nv set qos congestion-control default-global traffic-class 4 min-threshold 150000
nv set qos congestion-control default-global traffic-class 4 max-threshold 1500000
nv set qos congestion-control default-global traffic-class 4 probability 100
nv set qos congestion-control default-global traffic-class 5 ecn disable
nv set qos congestion-control default-global traffic-class 6 ecn disable
nv set qos congestion-control default-global traffic-class 7 ecn disable
nv set qos congestion-control fabricc-ecn-2 traffic-class 0 ecn disable
nv set qos congestion-control fabricc-ecn-2 traffic-class 1 ecn disable
nv set qos congestion-control fabricc-ecn-2 traffic-class 2 ecn disable
nv set qos congestion-control fabricc-ecn-2 traffic-class 3 ecn enable
nv set qos congestion-control fabricc-ecn-2 traffic-class 3 min-threshold 300000
nv set qos congestion-control fabricc-ecn-2 traffic-class 3 max-threshold 3000000
nv set qos congestion-control fabricc-ecn-2 traffic-class 3 probability 20
nv set qos congestion-control fabricc-ecn-2 traffic-class 4 ecn enable
nv set qos congestion-control fabricc-ecn-2 traffic-class 4 min-threshold 150000
nv set qos congestion-control fabricc-ecn-2 traffic-class 4 max-threshold 1500000
nv set qos congestion-control fabricc-ecn-2 traffic-class 4 probability 100
nv set qos congestion-control fabricc-ecn-2 traffic-class 5 ecn disable
nv set qos congestion-control fabricc-ecn-2 traffic-class 6 ecn disable
nv set qos congestion-control fabricc-ecn-2 traffic-class 7 ecn disable
nv set qos egress-scheduler default-global traffic-class 0 mode dwrr
nv set qos egress-scheduler default-global traffic-class 0 bw-percent 40
nv set qos egress-scheduler default-global traffic-class 1 mode dwrr
nv set qos egress-scheduler default-global traffic-class 1 bw-percent 0
nv set qos egress-scheduler default-global traffic-class 2 mode dwrr
nv set qos egress-scheduler default-global traffic-class 2 bw-percent 0
nv set qos egress-scheduler default-global traffic-class 3 mode dwrr
nv set qos egress-scheduler default-global traffic-class 3 bw-percent 50
nv set qos egress-scheduler default-global traffic-class 4 mode dwrr
nv set qos egress-scheduler default-global traffic-class 4 bw-percent 10
nv set qos egress-scheduler default-global traffic-class 5 mode dwrr
nv set qos egress-scheduler default-global traffic-class 5 bw-percent 0
nv set qos egress-scheduler default-global traffic-class 6 mode strict
nv set qos egress-scheduler default-global traffic-class 7 mode dwrr
nv set qos egress-scheduler default-global traffic-class 7 bw-percent 0
nv set qos pfc-watchdog polling-interval 100
nv set qos pfc-watchdog robustness 2
nv set interface swp1 description 'gpu001 nic1'
nv set interface swp1 link mtu 9216
nv set interface swp1 qos pfc profile fabricc-pfc-3m
nv set interface swp1 qos pfc-watchdog state enable
nv set interface swp2 description 'gpu002 nic1'
nv set interface swp2 link mtu 9216
nv set interface swp2 qos pfc profile fabricc-pfc-3m
nv set interface swp2 qos pfc-watchdog state enable
nv set interface swp3 description 'uplink to spine1'
nv set interface swp3 link mtu 9216
nv set interface swp3 qos pfc-watchdog state enable
nv set interface swp4 description 'uplink to spine2'
nv set interface swp4 link mtu 9216
nv set interface swp4 qos pfc-watchdog state enable
nv set interface swp4 qos congestion-control profile fabricc-ecn-2
nv config apply -y
