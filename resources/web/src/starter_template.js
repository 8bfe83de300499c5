// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: DRA Console authors
//
// The text the template editor opens with: one GPU of the gpu.nvidia.com class whose product
// name starts with NVIDIA. Its own module (no imports), so the browser tests can check the
// server's answer for the very text the page starts from.

export const STARTER = `apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: one-gpu
  namespace: default
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.nvidia.com
          selectors:
          - cel:
              expression: device.attributes['gpu.nvidia.com'].productName.startsWith('NVIDIA')
`;
