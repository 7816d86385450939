import type { use } from 'echarts/core';
import { registerFeature } from 'echarts-lib/component/toolbox/featureManager.js';
import SaveAsImage from 'echarts-lib/component/toolbox/feature/SaveAsImage.js';
import ToolboxModel from 'echarts-lib/component/toolbox/ToolboxModel.js';
import ToolboxView from 'echarts-lib/component/toolbox/ToolboxView.js';

// The toolbox with its 保存为图片 alone. echarts' ToolboxComponent installs every feature (magic type, data
// view, restore, data zoom) and, with data zoom, the brush and dataZoom-select components, none of which this
// screen uses. `echarts-lib/` is echarts' own lib/ folder, which its package exports do not name (an alias in
// web/vite.config.ts, a path to its types in web/tsconfig.json).

type Installer = Extract<Parameters<typeof use>[0], (...args: never[]) => unknown>;

export const installSaveAsImageToolbox: Installer = (registers) => {
  // (lib/'s classes and the public types' are two declarations of the same classes)
  registers.registerComponentModel(ToolboxModel as never);
  registers.registerComponentView(ToolboxView as never);
  registerFeature('saveAsImage', SaveAsImage);
};
